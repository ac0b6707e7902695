import type { ComponentType } from 'react';

/**
 * A component whose code is a lazy chunk. Until the chunk has arrived, rendering it suspends
 * (the nearest Suspense fallback shows); once it has, it renders at once, without the extra
 * suspended render React.lazy makes. So a part preloaded ahead of time (a later screen while
 * the customer is on the step before, the travel details form while its data loads) appears
 * without a loader. A failed load is thrown to the error boundary, whose Refresh tries again.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let failure: unknown = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (part) => {
        loaded = part;
      },
      (error: unknown) => {
        failure = error;
      },
    ));
  function LazyPart(props: P) {
    if (failure) throw failure;
    // Suspense waits on the thrown promise and renders again once the chunk is in.
    if (!loaded) throw preload();
    const Part = loaded;
    return <Part {...props} />;
  }
  return { Component: LazyPart, preload, isLoaded: () => loaded !== null };
}
