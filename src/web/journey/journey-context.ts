import { createActorContext } from '@xstate/react';
import { journeyMachine } from '../../../machines/journey.machine';

/** The running journey actor, its selectors and its ref, for every screen. */
export const JourneyActorContext = createActorContext(journeyMachine);
