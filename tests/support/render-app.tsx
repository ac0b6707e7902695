import { render } from '@testing-library/react';
import { beforeAll } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { JourneyInput } from '../../machines/journey.types';
import { App } from '../../src/web/app';
import { JourneyActorContext } from '../../src/web/journey/journey-context';
import { preloadAllScreens } from '../../src/web/screens/journey-outlet';
import { COMPANY_INFO_FALLBACK } from '../../src/web/shell/company-info.fallback';

// Screens after travel details are lazy chunks; loading them first lets every test render a
// step synchronously, as the app does once it has preloaded them.
beforeAll(() => preloadAllScreens());

export type JourneyActorRef = ReturnType<typeof JourneyActorContext.useActorRef>;

/**
 * Renders the whole SPA in English under a memory router at `url` (path and query), with the
 * journey started from `journey`, and returns the router and the running journey actor.
 */
export function renderApp(url: string, journey: JourneyInput) {
  const holder: { actor?: JourneyActorRef } = {};
  function ActorProbe() {
    holder.actor = JourneyActorContext.useActorRef();
    return null;
  }
  const boot = { lang: 'en' as const, companyInfo: COMPANY_INFO_FALLBACK.en, mainSiteUrl: 'https://www.safar.example', journey };
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <App boot={boot} env="test">
            <ActorProbe />
          </App>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  if (!holder.actor) throw new Error('the journey actor did not start');
  return { router, actor: holder.actor };
}
