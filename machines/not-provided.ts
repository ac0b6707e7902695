/**
 * The placeholder of a call a machine makes, which the web injects with .provide() (DESIGN
 * convention 1): run without it, the call fails, naming the step and the call.
 */
export const notProvided = (step: string, call: string) => async (): Promise<never> => {
  throw new Error(`${step}: actor ${call} was not provided`);
};
