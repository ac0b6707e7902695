import { secureHeaders } from 'hono/secure-headers';

/**
 * Security headers with a Content-Security-Policy the SPA works under: scripts, fonts and
 * workers only from this origin; inline styles are allowed because Mantine sets its CSS
 * variables and component styles through style attributes and one injected style tag.
 * Strict-Transport-Security only when PUBLIC_URL is https: over plain http (development, a test
 * box on a LAN address) browsers ignore it anyway, and a deployment that is reached over https
 * is the one that must never be downgraded (issue 7 row 8).
 */
export function securityHeadersMiddleware(options: { apiOrigin: string | null; formTargets: string[]; publicUrl: string }) {
  const https = new URL(options.publicUrl).protocol === 'https:';
  const connect = ["'self'", ...(options.apiOrigin ? [options.apiOrigin] : [])];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: connect,
      // The bot-check worker is a bundled file of this origin (src/web/services/bot-check.worker.ts).
      workerSrc: ["'self'"],
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
