import { createContext, useContext } from 'react';
import { useActorRef } from '@xstate/react';
import type { AnyActorLogic, InputFrom, InspectionEvent } from 'xstate';

/**
 * An inspector for the app's actors: the journey (JourneyProvider) and the step machines, which
 * each screen starts on its own (they are not children of the journey). The app leaves it unset;
 * the model tests set it (tests/support/render-app.tsx) to record which states and transitions
 * the rendered app reaches (issue 20), and a developer can set it to watch the app in an inspector.
 */
export const ActorInspectorContext = createContext<((event: InspectionEvent) => void) | undefined>(undefined);

/** Starts a step's machine for its screen, with its input, watched by the actor inspector if one is set. */
export function useStepActor<TLogic extends AnyActorLogic>(logic: TLogic, input: InputFrom<TLogic>) {
  const inspect = useContext(ActorInspectorContext);
  return useActorRef(logic, { input, inspect } as never);
}
