import { render } from '@testing-library/react';
import { beforeAll } from 'vitest';
import type { InspectionEvent } from 'xstate';
import type { JourneyInput } from '../../machines/journey.types';
import { App, preloadSystemErrorDialog } from '../../src/web/app';
import { createMemoryHistory, LocationProvider } from '../../src/web/journey/app-location';
import { JourneyActorContext } from '../../src/web/journey/journey-context';
import { ActorInspectorContext } from '../../src/web/journey/step-actor';
import { preloadAllScreens } from '../../src/web/screens/journey-outlet';
import { COMPANY_INFO_FALLBACK } from '../../src/web/shell/company-info.fallback';

// Screens after travel details, and the error dialog, are lazy chunks; loading them first lets
// every test render a step synchronously, as the app does once it has preloaded them.
beforeAll(() => Promise.all([preloadAllScreens(), preloadSystemErrorDialog()]));

export type JourneyActorRef = ReturnType<typeof JourneyActorContext.useActorRef>;

/**
 * Renders the whole SPA on an in-memory history at `url` (path and query), with the journey
 * started from `journey`, and returns that history (as `router`) and the running journey actor.
 * `inspect` (the model tests' coverage inspector) watches the journey from its start and the step
 * machines the screens start. `lang` is the language the app boots in (English unless told; the
 * caller activates its catalogue, activateLanguage).
 */
export function renderApp(url: string, journey: JourneyInput, { inspect, lang = 'en' }: { inspect?: (event: InspectionEvent) => void; lang?: 'en' | 'ar' } = {}) {
  const holder: { actor?: JourneyActorRef } = {};
  function ActorProbe() {
    holder.actor = JourneyActorContext.useActorRef();
    return null;
  }
  const boot = { lang, companyInfo: COMPANY_INFO_FALLBACK[lang], mainSiteUrl: 'https://www.safar.example', journey };
  const router = createMemoryHistory(url);
  render(
    <ActorInspectorContext.Provider value={inspect}>
      <LocationProvider history={router}>
        <App boot={boot} env="test">
          <ActorProbe />
        </App>
      </LocationProvider>
    </ActorInspectorContext.Provider>,
  );
  if (!holder.actor) throw new Error('the journey actor did not start');
  return { router, actor: holder.actor };
}
