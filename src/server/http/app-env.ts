import type { Language } from '../../contract/endpoint';

/** Values the middleware chain puts on each request's context. */
export type AppEnv = {
  Variables: {
    /** A fresh id per request, sent as X-Request-Id and written on its error log line. */
    requestId: string;
    /**
     * The exact body text of a POST, PUT or PATCH, read once and bounded by the body-limit
     * middleware, then reused for the signature and for parsing.
     */
    rawBody: string;
    /** The parsed JSON body, or undefined when the body was empty. */
    body: unknown;
    lang: Language;
    /**
     * Set by coupon/validate and temp-checkout when the answer tells a guesser that the code is
     * no coupon it can use (routes/checkout.handlers.ts): the guess limit keeps its count then.
     */
    couponMiss: boolean;
  };
};
