import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Center, Loader } from '@mantine/core';
import type { StepId } from '../../../machines/journey.routes';
import { selectStep } from '../../../machines/journey.selectors';
import { JourneyActorContext } from '../journey/journey-context';
import { ScreenFocusContext } from './page-heading';
import { preloadDatePicker } from './traveller-details/form/date-field';
import { TravellerDetailsScreen } from './traveller-details/traveller-details.screen';

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
};

/**
 * A screen whose chunk loads on first use. Until it has arrived, rendering it suspends (the
 * Suspense fallback shows); once it has, it renders at once, so a screen preloaded while the
 * customer was on the step before appears without a loader.
 */
function lazyScreen(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | null = null;
  let failure: unknown = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (screen) => {
        loaded = screen;
      },
      (error: unknown) => {
        // The error boundary shows the error view; its Refresh reloads the page and tries again.
        failure = error;
      },
    ));
  function LazyScreen() {
    if (failure) throw failure;
    // Suspense waits on the thrown promise and renders again once the chunk is in.
    if (!loaded) throw preload();
    const Screen = loaded;
    return <Screen />;
  }
  return { Screen: LazyScreen, preload };
}

const LAZY = Object.fromEntries(Object.entries(LOADERS).map(([step, load]) => [step, lazyScreen(load)])) as Record<
  keyof typeof LOADERS,
  ReturnType<typeof lazyScreen>
>;

const SCREENS: Partial<Record<StepId, ComponentType>> = { travellerDetails: TravellerDetailsScreen };
for (const step of Object.keys(LAZY) as (keyof typeof LAZY)[]) SCREENS[step] = LAZY[step].Screen;

/** Loads every lazy screen, and the date fields' calendar, now: tests render the whole journey synchronously after it. */
export function preloadAllScreens(): Promise<unknown[]> {
  return Promise.all([...Object.values(LAZY).map((lazyOne) => lazyOne.preload()), preloadDatePicker()]);
}

/**
 * Fetches every later step's chunk, and the calendar, once the browser is idle after the first
 * screen, so no step change or opened calendar waits on the network or shows a loader.
 */
function usePreloadNextScreens() {
  useEffect(() => {
    const preload = () => void preloadAllScreens();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(preload, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(preload, 1500);
    return () => clearTimeout(timer);
  }, []);
}

/**
 * Renders the screen of the journey's current step: the machine, not the URL, decides. After
 * a step change the new screen's heading takes focus; on the first page load focus stays at
 * the top, so Tab reaches the skip link and the header first.
 */
export function JourneyOutlet() {
  const step = JourneyActorContext.useSelector(selectStep);
  const [initialStep] = useState(step);
  const [navigated, setNavigated] = useState(false);
  // Derived during render (React's pattern for state from a changed value): once the step
  // has changed, every later screen, the first one included, takes focus when it opens.
  if (!navigated && step !== initialStep) setNavigated(true);
  usePreloadNextScreens();
  const Screen = SCREENS[step] ?? TravellerDetailsScreen;
  return (
    <ScreenFocusContext.Provider value={navigated || step !== initialStep}>
      <Suspense
        fallback={
          <Center py="xl">
            <Loader aria-hidden />
          </Center>
        }
      >
        <Screen key={step} />
      </Suspense>
    </ScreenFocusContext.Provider>
  );
}
