import { useRef } from 'react';
import { Alert, Button, Checkbox, Paper, Stack } from '@mantine/core';
import { IconInfoCircle, IconLock, IconShieldCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import {
  selectCanPay,
  selectCoupon,
  selectCustomer,
  selectEmailSent,
  selectInvoice,
  selectLead,
  selectNotice,
  selectNothingToPay,
  selectPaying,
  selectSharing,
  selectTermsAgreed,
  selectTotals,
  selectViewState,
  selectWhatsappTemplate,
} from '../../../../machines/checkout/checkout.selectors';
import { selectLeadNotFound } from '../../../../machines/service-failure';
import { PROVIDER } from '../../../contract/traveller-review.rules';
import { StepShareButtons, type ShareView } from '../../components/share-buttons';
import { useApp } from '../../shell/app-context';
import { mainSiteUrl } from '../../shell/main-site-links';
import { PlanSummary } from '../invoice-shared/plan-summary';
import { LoadFailureView } from '../load-failure-view';
import { useShownViewState } from '../use-shown-view-state';
import { PageHeading } from '../page-heading';
import { FLOATING_NOTICE } from '../quotes-shared/quotes-notice';
import type { checkoutLogic } from './checkout.actors';
import { CheckoutLoading } from './checkout-loading';
import { useCouponAnnouncements } from './coupon-announcement';
import { CouponBox } from './coupon-box';
import { PaymentOverlay } from './payment-overlay';
import { PriceSummary } from './price-summary';
import { TravellersSummary } from './travellers-summary';
import { useCheckoutStep } from './use-checkout-step';

type CheckoutActor = ActorRefFrom<typeof checkoutLogic>;

/** /checkout: the plan, the travellers, a coupon, the server's totals, terms and payment (spec §2). */
export function CheckoutScreen() {
  const { t } = useLingui();
  const { step, lang, isAgent } = useCheckoutStep();
  const viewState = useShownViewState(useSelector(step, selectViewState));
  const invoice = useSelector(step, selectInvoice);
  const lead = useSelector(step, selectLead);
  const totals = useSelector(step, selectTotals);
  const coupon = useSelector(step, selectCoupon);
  const notice = useSelector(step, selectNotice);
  const leadNotFound = useSelector(step, selectLeadNotFound);
  useCouponAnnouncements(step, lang);

  let body;
  if (viewState === 'failed') body = <LoadFailureView leadNotFound={leadNotFound} />;
  else if (viewState !== 'ready' || !invoice || !lead || !totals) body = <CheckoutLoading />;
  else {
    const plan = { providerId: invoice.insurance_provider_id, isApiPlan: invoice.is_api_plan, isFamily: lead.is_family, sourceId: lead.source_id };
    body = (
      <Stack gap="lg">
        <PlanSummary
          invoice={invoice}
          lead={lead}
          lang={lang}
          sections={[1, 2, 3]}
          showCoverFor={invoice.insurance_provider_id !== PROVIDER.stampFee}
          actions={isAgent ? <StepShareButtons step={step} select={shareOf} /> : undefined}
          cents
          testId="checkout-summary"
        />
        <TravellersSummary travellers={lead.travellers_info} plan={plan} lang={lang} />
        <CouponBox
          text={coupon.text}
          applied={coupon.applied}
          error={coupon.message}
          applying={coupon.applying}
          onChange={(text) => step.send({ type: 'coupon.change', text })}
          onApply={() => step.send({ type: 'coupon.apply' })}
          onRemove={() => step.send({ type: 'coupon.remove' })}
        />
        {notice && (
          <Alert
            {...FLOATING_NOTICE}
            color="yellow"
            icon={<IconInfoCircle aria-hidden="true" />}
            withCloseButton
            closeButtonLabel={t`Close`}
            onClose={() => step.send({ type: 'notice.dismiss' })}
            data-testid="checkout-notice"
          >
            {notice === 'totals_changed'
              ? t`The price was updated by our system. Please check the new total before you pay.`
              : t`Too many coupon attempts. Please wait a few minutes and try again.`}
          </Alert>
        )}
        <PriceSummary totals={totals} lang={lang} />
        {!isAgent && <PayPanel step={step} />}
      </Stack>
    );
  }
  return (
    <>
      <PageHeading testId="screen-checkout" title={t`Purchase insurance`} intro={t`Review your plan, apply a coupon and pay securely.`} />
      {body}
    </>
  );
}

/**
 * Terms (checked by default) and Proceed to the secure payments page (customers only, spec §6).
 * A total of 0 (a 100 % coupon) has no payments page: the policy is issued at once (RULINGS 18),
 * so the button says so (issue 38).
 */
function PayPanel({ step }: { step: CheckoutActor }) {
  const { t } = useLingui();
  const agreed = useSelector(step, selectTermsAgreed);
  const canPay = useSelector(step, selectCanPay);
  const paying = useSelector(step, selectPaying);
  const free = useSelector(step, selectNothingToPay);
  const proceed = useRef<HTMLButtonElement>(null);
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="pay-panel">
      <Stack gap="md">
        <Checkbox
          checked={agreed}
          onChange={(event) => step.send({ type: 'terms.toggle', agreed: event.currentTarget.checked })}
          label={
            <>
              {t`I agree to the`}{' '}
              <a href={mainSiteUrl(useApp().mainSiteUrl, 'terms-and-conditions')} target="_blank" rel="noopener noreferrer">
                {t`terms and conditions`}
              </a>
            </>
          }
          data-testid="terms-checkbox"
        />
        <Button
          size="lg"
          fullWidth
          leftSection={free ? <IconShieldCheck size={18} aria-hidden="true" /> : <IconLock size={18} aria-hidden="true" />}
          disabled={!canPay}
          ref={proceed}
          loading={paying}
          onClick={() => step.send({ type: 'checkout.pay' })}
          data-testid="checkout-pay"
        >
          {free ? t`Get my policy` : t`Proceed to payment`}
        </Button>
      </Stack>
      <PaymentOverlay step={step} returnFocusTo={proceed} free={free} />
    </Paper>
  );
}

/** Agent mode on this page: WhatsApp or e-mail the checkout page to the customer. */
const shareOf = (snapshot: SnapshotFrom<CheckoutActor>): ShareView => ({
  customer: selectCustomer(snapshot),
  template: selectWhatsappTemplate(snapshot),
  sending: selectSharing(snapshot),
  sent: selectEmailSent(snapshot),
});
