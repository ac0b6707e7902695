import { useDeferredValue } from 'react';

/**
 * The view state a step's screen draws its body from: the machine's, one render late. A
 * machine's update reaches React through useSyncExternalStore, which renders at once, in one
 * task: the quote list's first full render (seven cards, their add-ons and prices) held a phone's
 * main thread for 0.7 s that way, with every tap waiting (issue 19). Deferred, React renders the
 * new body as a transition, in slices of a few milliseconds, and the loading outline stays on
 * screen until the body is ready to show.
 */
export function useShownViewState<S extends string>(viewState: S): S {
  return useDeferredValue(viewState);
}
