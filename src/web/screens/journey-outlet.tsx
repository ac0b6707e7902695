import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { STEPS_NEEDING_LEAD, policyTokenOfPath, stepForPath, type StepId } from '../../../machines/journey.routes';
import { selectLead, selectStep } from '../../../machines/journey.selectors';
import { fetchLeadStatus } from '../services/lead-status.service';
import { forgetLeadOpen, isLeadKnownOpen, markLeadOpen } from '../journey/open-leads';
import { useApp } from '../shell/app-context';
import { lazyPart } from '../components/lazy-part';
import { JourneyActorContext } from '../journey/journey-context';
import { whenIdle } from '../shell/when-idle';
import { ScreenFocusContext } from './page-heading';
import { TravellerDetailsScreen, preloadDatePicker, preloadTravelDetailsForm } from './traveller-details/traveller-details.screen';

/**
 * Every screen but the first step is its own lazy chunk (DESIGN: the first load carries only the
 * shell and travel details). Each loader is kept so the chunk can be fetched ahead of time.
 */
const LOADERS: Record<Exclude<StepId, 'travellerDetails'>, () => Promise<ComponentType>> = {
  compareQuotes: () => import('./compare-quotes/compare-quotes.screen').then((m) => m.CompareQuotesScreen),
  compareOffers: () => import('./compare-offers/compare-offers.screen').then((m) => m.CompareOffersScreen),
  reviewDetails: () => import('./review-details/review-details.screen').then((m) => m.ReviewDetailsScreen),
  checkout: () => import('./checkout/checkout.screen').then((m) => m.CheckoutScreen),
  thankYou: () => import('./thank-you/thank-you.screen').then((m) => m.ThankYouScreen),
  callBack: () => import('./call-back/call-back.screen').then((m) => m.CallBackScreen),
  thankYouHundred: () => import('./thank-you-hundred/thank-you-hundred.screen').then((m) => m.ThankYouHundredScreen),
  requestCallBack: () => import('./request-call-back/request-call-back.screen').then((m) => m.RequestCallBackScreen),
  paymentResult: () => import('./payment-result/payment-result.screen').then((m) => m.PaymentResultScreen),
  policy: () => import('./policy/policy.screen').then((m) => m.PolicyScreen),
};

const LAZY = Object.fromEntries(Object.entries(LOADERS).map(([step, load]) => [step, lazyPart(load)])) as Record<
  keyof typeof LOADERS,
  ReturnType<typeof lazyPart>
>;

const SCREENS: Partial<Record<StepId, ComponentType>> = { travellerDetails: TravellerDetailsScreen };
for (const step of Object.keys(LAZY) as (keyof typeof LAZY)[]) SCREENS[step] = LAZY[step].Component;

/** Checks an agent link's agent, and says so when it is unknown (issue 38): a chunk only agent links load. */
const AgentLinkGate = lazyPart(() => import('./agent-link-notice').then((gate) => gate.AgentLinkGate));

/** Loads every lazy screen, the travel details form and its calendar now: tests render the whole journey synchronously after it. */
export function preloadAllScreens(): Promise<unknown[]> {
  return Promise.all([preloadTravelDetailsForm(), ...Object.values(LAZY).map((lazyOne) => lazyOne.preload()), preloadDatePicker(), AgentLinkGate.preload()]);
}

/**
 * Starts fetching the screen of the address the page opened at, beside the entry's own start-up
 * requests: a link straight to /compare-quotes or /checkout, and the first page's travel details
 * form, do not wait for the app's first render to ask for their chunks (issue 19). The build
 * writes no module preloads, so a chunk's imports arrive one level at a time: started here, that
 * runs beside the catalogue and the company information rather than after them.
 */
export function preloadScreenAt(pathname: string): void {
  // The root and unknown paths show travel details, as the journey falls back to it.
  const step = stepForPath(pathname) ?? 'travellerDetails';
  if (step === 'travellerDetails') void preloadTravelDetailsForm();
  else void LAZY[step].preload();
}

/** How long after the first screen opens the later screens start loading. */
const PRELOAD_DELAY_MS = 1000;

/**
 * Fetches every later step's chunk, the travel details form (for a page opened further on) and
 * the calendar once the browser is idle after the first screen, so no step change or opened
 * calendar waits on the network or shows a loader. One chunk per idle period, in journey order,
 * so evaluating them never competes with the customer's first taps (issue 19).
 */
function usePreloadNextScreens() {
  useEffect(() => {
    const queue: (() => Promise<unknown>)[] = [...Object.values(LAZY).map((lazyOne) => lazyOne.preload), preloadTravelDetailsForm, preloadDatePicker];
    let cancel = () => {};
    let stopped = false;
    const next = () => {
      const load = queue.shift();
      if (!load || stopped) return;
      cancel = whenIdle(() => void load().then(next, next));
    };
    // Not while the first screen is still arriving: a second in, then one chunk per idle period.
    const delay = setTimeout(next, PRELOAD_DELAY_MS);
    return () => {
      stopped = true;
      clearTimeout(delay);
      cancel();
    };
  }, []);
}

/** The pages a link to a lead can open: its own, and travel details to edit it (RULINGS 28: a paid lead's open its policy instead). */
const PAGES_OF_A_LEAD: ReadonlySet<StepId> = new Set(['travellerDetails', ...STEPS_NEEDING_LEAD]);
/** After these the lead may be paid: its pages are asked about again. */
const PAGES_AFTER_PAYING: ReadonlySet<StepId> = new Set(['thankYouHundred', 'paymentResult']);

/**
 * RULINGS 28: before a page of a lead named by its address is shown (a shared link, a bookmark,
 * Back and reload), the server is asked whether that lead is paid; if it is, the journey shows
 * its policy instead (lead.paid), so no form to buy it again ever shows, not even for a moment.
 * A lead the customer submitted or resumed in this page load is not asked about (open-leads.ts);
 * after a payment page, it is again. An unknown lead (404) or a failed call lets the page show,
 * and the page says what it finds.
 */
function usePaidLeadCheck(step: StepId): boolean {
  const journey = JourneyActorContext.useActorRef();
  const { uuid } = JourneyActorContext.useSelector(selectLead);
  const { lang } = useApp();
  const [, setAnswered] = useState(0);
  const afterPaying = PAGES_AFTER_PAYING.has(step);
  useEffect(() => {
    if (uuid && afterPaying) forgetLeadOpen(uuid);
  }, [uuid, afterPaying]);
  const mustAsk = uuid !== null && PAGES_OF_A_LEAD.has(step) && !isLeadKnownOpen(uuid);
  useEffect(() => {
    if (!mustAsk || !uuid) return;
    let live = true;
    const answered = (policyToken: string | null) => {
      if (!live) return;
      if (policyToken) journey.send({ type: 'lead.paid', policyToken });
      else markLeadOpen(uuid);
      setAnswered((n) => n + 1);
    };
    fetchLeadStatus(uuid, lang).then(
      (status) => answered(status.status === 'paid' && status.policy_page ? policyTokenOfPath(status.policy_page) : null),
      () => answered(null),
    );
    return () => {
      live = false;
    };
  }, [mustAsk, uuid, lang, journey]);
  return mustAsk;
}

/**
 * Renders the screen of the journey's current step: the machine, not the URL, decides. After
 * a step change the new screen's heading takes focus; on the first page load focus stays at
 * the top, so Tab reaches the skip link and the header first.
 */
export function JourneyOutlet() {
  const { t } = useLingui();
  const step = JourneyActorContext.useSelector(selectStep);
  const agentId = JourneyActorContext.useSelector((snapshot) => selectLead(snapshot).agentId);
  const { lang } = useApp();
  const asking = usePaidLeadCheck(step);
  // RULINGS 14: an agent link's agent is checked around the page (agent-link-notice.tsx); travel
  // details checks it itself, in its own form. Agent 0 is what a customer's requests send.
  const checksAgent = agentId !== null && Number(agentId) !== 0 && step !== 'travellerDetails';
  const [initialStep] = useState(step);
  const [navigated, setNavigated] = useState(false);
  // Derived during render (React's pattern for state from a changed value): once the step
  // has changed, every later screen, the first one included, takes focus when it opens.
  if (!navigated && step !== initialStep) setNavigated(true);
  usePreloadNextScreens();
  const Screen = SCREENS[step] ?? TravellerDetailsScreen;
  if (asking) {
    return (
      <Center py="xl" mih="60dvh" style={{ alignItems: 'flex-start' }} role="status" data-testid="lead-status-check">
        <Loader aria-hidden="true" />
        <VisuallyHidden>{t`Opening your trip…`}</VisuallyHidden>
      </Center>
    );
  }
  return (
    <ScreenFocusContext.Provider value={navigated || step !== initialStep}>
      <Suspense
        fallback={
          <Center py="xl">
            <Loader aria-hidden />
          </Center>
        }
      >
        {checksAgent ? (
          <AgentLinkGate.Component agentId={agentId} lang={lang}>
            <Screen key={step} />
          </AgentLinkGate.Component>
        ) : (
          <Screen key={step} />
        )}
      </Suspense>
    </ScreenFocusContext.Provider>
  );
}
