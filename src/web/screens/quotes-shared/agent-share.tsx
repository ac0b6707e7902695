import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectCustomer, selectEmailSent, selectSharing, selectWhatsappTemplate } from '../../../../machines/quotes.selectors';
import { ShareButtons } from '../../components/share-buttons';
import type { quotesLogic } from './quotes.actors';

/** The quote pages' share buttons (agent mode), shown once the customer is known. */
export function AgentShare({ step }: { step: ActorRefFrom<typeof quotesLogic> }) {
  const customer = useSelector(step, selectCustomer);
  const template = useSelector(step, selectWhatsappTemplate);
  const sending = useSelector(step, selectSharing);
  const sent = useSelector(step, selectEmailSent);
  if (!customer) return null;
  return (
    <ShareButtons
      phone={customer.complete_phone_number}
      email={customer.email}
      template={template}
      sending={sending}
      sent={sent}
      onEmail={() => step.send({ type: 'share.email' })}
    />
  );
}
