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
      <LiveMark />
    </StrictMode>
  );
}

/**
 * Marks the page `<html data-app="live">` once the app is on screen. Until then the page shows
 * its screen as pre-rendered at build time (src/web/prerender), whose controls do nothing yet;
 * the end-to-end tests and the bench wait for this mark before they use the page.
 */
function LiveMark() {
  useEffect(() => document.documentElement.setAttribute('data-app', 'live'), []);
  return null;
}
