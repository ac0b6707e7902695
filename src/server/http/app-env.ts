import type { Language } from '../../contract/endpoint';

/** Values the middleware chain puts on each request's context. */
export type AppEnv = {
  Variables: {
    /** The exact body text, read once for the signature and reused for parsing. */
    rawBody: string;
    /** The parsed JSON body, or undefined when the body was empty. */
    body: unknown;
    lang: Language;
  };
};
