import { useContext, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { journeyMachine } from '../../../machines/journey.machine';
import type { JourneyInput } from '../../../machines/journey.types';
import { selectPath } from '../../../machines/journey.selectors';
import { useLocation, useNavigate, type AppLocation, type NavigateFunction } from './app-location';
import { JourneyActorContext } from './journey-context';
import { routeLocation } from './route-location';
import { ActorInspectorContext } from './step-actor';

/** The router as the machine's showRoute sees it; updated after every render. */
interface RouterHandle {
  location: Pick<AppLocation, 'pathname' | 'search'>;
  navigate: NavigateFunction;
}

/** The journey machine with `showRoute` implemented by the router (DESIGN convention 1). */
function routedJourney(router: RouterHandle) {
  return journeyMachine.provide({
    actions: {
      showRoute: (_, params) => {
        const here = router.location;
        const target = routeLocation(params, here.search);
        if (target.pathname === here.pathname && target.search === here.search) return;
        // The router's location updates on the next render; track it now so that two
        // steps entered in one tick do not both compare against the old address.
        router.location = target;
        router.navigate(target, { replace: params.replace });
      },
    },
  });
}

/**
 * Runs the journey machine with the router-backed `showRoute`, and feeds every URL change
 * (back/forward, typed address, links) back to the machine as `route.changed`, whose guards
 * decide whether it stands (DESIGN convention 2).
 */
export function JourneyProvider({ input, children }: { input: JourneyInput; children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [router] = useState<RouterHandle>(() => ({ location, navigate }));
  const [logic] = useState(() => routedJourney(router));
  const inspect = useContext(ActorInspectorContext);
  // Layout effects run before the actor starts in its provider's effect, so the first
  // showRoute already sees the current router.
  useLayoutEffect(() => {
    Object.assign(router, { location, navigate });
  }, [router, location, navigate]);

  return (
    <JourneyActorContext.Provider logic={logic} options={{ input, inspect }}>
      <UrlSync />
      {children}
    </JourneyActorContext.Provider>
  );
}

function UrlSync() {
  const location = useLocation();
  const actor = JourneyActorContext.useActorRef();
  useEffect(() => {
    if (location.pathname !== selectPath(actor.getSnapshot())) {
      actor.send({ type: 'route.changed', path: location.pathname });
    }
    window.scrollTo({ top: 0, left: 0 });
  }, [location.pathname, actor]);
  return null;
}
