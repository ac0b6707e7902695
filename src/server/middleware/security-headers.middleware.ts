import { secureHeaders } from 'hono/secure-headers';

/** Where api.js loads its code from, and the frame it opens (developers.google.com/recaptcha/docs/faq, CSP). */
const RECAPTCHA_SCRIPT_SOURCES = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME_SOURCES = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

/**
 * Security headers with a Content-Security-Policy the SPA works under: scripts, fonts and
 * workers only from this origin; inline styles are allowed because Mantine sets its CSS
 * variables and component styles through style attributes and one injected style tag.
 * Strict-Transport-Security only when PUBLIC_URL is https: over plain http (development, a test
 * box on a LAN address) browsers ignore it anyway, and a deployment that is reached over https
 * is the one that must never be downgraded (issue 7 row 8).
 * With BOT_CHECK=recaptcha (`recaptcha`), Google's reCAPTCHA script and its frames are allowed
 * too, by the paths Google lists for a CSP; with ALTCHA nothing of Google's is.
 */
export function securityHeadersMiddleware(options: {
  apiOrigin: string | null;
  formTargets: string[];
  publicUrl: string;
  recaptcha?: boolean;
  /** Hashes of the SPA's own inline scripts (src/server/http/spa.ts inlineScriptHashes). */
  inlineScripts?: string[];
}) {
  const https = new URL(options.publicUrl).protocol === 'https:';
  const connect = ["'self'", ...(options.apiOrigin ? [options.apiOrigin] : [])];
  const recaptchaScripts = options.recaptcha ? RECAPTCHA_SCRIPT_SOURCES : [];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...(options.inlineScripts ?? []), ...recaptchaScripts],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: connect,
      // The bot-check worker is a bundled file of this origin (src/web/services/bot-check.worker.ts).
      workerSrc: ["'self'"],
      ...(options.recaptcha ? { frameSrc: RECAPTCHA_FRAME_SOURCES } : {}),
      formAction: ["'self'", ...options.formTargets],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: https ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: ['self'] },
    crossOriginEmbedderPolicy: false,
  });
}
