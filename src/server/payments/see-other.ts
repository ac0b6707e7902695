import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env';

/**
 * Sent by the sandbox's scripts (card.js, return.js) with a form they post in the background
 * (issue 17 item 9). A browser sends it only from a script of this origin: a cross-origin page
 * would need a CORS preflight the server never grants, and the gateway's own return is a plain
 * form post.
 */
export const BACKGROUND_POST_HEADER = 'X-Background-Post';

/** Where a background post is sent next: the address a 303 would have named. */
export const NEXT_LOCATION_HEADER = 'X-Next-Location';

/**
 * 303 See Other (Post/Redirect/Get): the browser follows with a GET, so the page it keeps in
 * its history is not a POST's answer. A background post gets 204 and the address in
 * NEXT_LOCATION_HEADER instead: fetch cannot read a redirect's Location without following it,
 * and following it fetched the whole next page once for nothing before the script replaced the
 * page with it (the payment result's HTML twice, about 50 ms on loopback and a round trip and
 * 130 KB on a phone's line, issue 19).
 */
export function seeOther(c: Context<AppEnv>, location: string) {
  c.header('Cache-Control', 'no-store');
  if (c.req.header(BACKGROUND_POST_HEADER) === '1') {
    c.header(NEXT_LOCATION_HEADER, location);
    return c.body(null, 204);
  }
  return c.redirect(location, 303);
}
