import { StrictMode, startTransition, useEffect, useState } from 'react';
import { App, type AppBoot } from './app';
import { LocationProvider, type LocationHistory } from './journey/app-location';

/**
 * The app as the page runs it, and as the first screen is pre-rendered at build time: the same
 * tree in both, so React's generated ids and every element match when the page hydrates
 * (src/web/prerender). `next`, when given, replaces the boot values once it resolves (the
 * server's company information after a hydrated start).
 */
export function SafarApp({ boot, next, history: makeHistory }: { boot: AppBoot; next?: Promise<AppBoot>; history: () => LocationHistory }) {
  const [history] = useState(makeHistory);
  const [current, setCurrent] = useState(boot);
  useEffect(() => {
    void next?.then((value) => startTransition(() => setCurrent(value)));
  }, [next]);
  return (
    <StrictMode>
      <LocationProvider history={history}>
        <App boot={current} />
      </LocationProvider>
      <SplashHider />
    </StrictMode>
  );
}

/**
 * Removes the splash (shown on pages that were not pre-rendered) once the app is on screen: at
 * once, with no fade, since the app is already painted beneath it and a half-transparent splash
 * over it would be read, and mis-measured, by a screen reader or a contrast check.
 */
function SplashHider() {
  useEffect(() => document.getElementById('splash')?.remove(), []);
  return null;
}
