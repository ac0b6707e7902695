import { createContext, useContext } from 'react';
import { useActorRef } from '@xstate/react';
import type { AnyActorLogic, InputFrom, InspectionEvent } from 'xstate';

/**
 * An inspector for the step machines' actors, which each screen starts on its own (they are
 * not children of the journey). The app leaves it unset; the model tests set it
 * (tests/support/render-app.tsx) to record which states and transitions the rendered screens
 * reach (issue 20), and a developer can set it to watch a step in an inspector.
 */
export const StepInspectorContext = createContext<((event: InspectionEvent) => void) | undefined>(undefined);

/** Starts a step's machine for its screen, with its input, watched by the step inspector if one is set. */
export function useStepActor<TLogic extends AnyActorLogic>(logic: TLogic, input: InputFrom<TLogic>) {
  const inspect = useContext(StepInspectorContext);
  return useActorRef(logic, { input, inspect } as never);
}
