import type { ActorRefFrom } from 'xstate';
import { selectCustomer, selectEmailSent, selectSharing, selectWhatsappTemplate, type QuotesSnapshot } from '../../../../machines/quotes/quotes.selectors';
import { StepShareButtons, type ShareView } from '../../components/share-buttons';
import type { quotesLogic } from './quotes.actors';

const shareOf = (snapshot: QuotesSnapshot): ShareView => ({
  customer: selectCustomer(snapshot),
  template: selectWhatsappTemplate(snapshot),
  sending: selectSharing(snapshot),
  sent: selectEmailSent(snapshot),
});

/** The quote pages' share buttons (agent mode). */
export function AgentShare({ step }: { step: ActorRefFrom<typeof quotesLogic> }) {
  return <StepShareButtons step={step} select={shareOf} />;
}
