// @vitest-environment node
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { QUOTES_LEAD_UUID, SAMPLE_DATA } from '../../../machines/quotes/quotes.model';
import { ApiError, configureHttpClient } from './http-client';
import { fetchQuotes, proceedReview, sendEmailByPage } from './quote.service';

/** The API edge replaced by a stub that records each request and answers `status` with `data`. */
function serve(status: number, data: unknown) {
  const requests: { path: string; body: unknown }[] = [];
  const fetchStub: typeof fetch = async (input) => {
    const request = input as Request;
    requests.push({ path: new URL(request.url).pathname, body: await request.json() });
    return new Response(JSON.stringify({ status, message: status === 200 ? 'ok' : 'refused', data }), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  configureHttpClient({ baseUrl: 'http://quotes.test', signingKey: 'test', fetch: fetchStub });
  return requests;
}

const LINK = `https://safar.example/compare-quotes?uuid=${QUOTES_LEAD_UUID}`;

describe('quote service (API stubbed)', () => {
  it('fetchQuotes posts uuid, lang and link to compare-quotes and returns the validated data', async () => {
    const requests = serve(200, SAMPLE_DATA);
    const data = await fetchQuotes(QUOTES_LEAD_UUID, 'ar', LINK);
    expect(requests).toEqual([{ path: '/miscellaneous/travel/wiz/compare-quotes', body: { uuid: QUOTES_LEAD_UUID, lang: 'ar', link: LINK } }]);
    expect(data.quotes.map((quote) => quote.id)).toEqual(SAMPLE_DATA.quotes.map((quote) => quote.id));
  });

  it('fetchQuotes refuses an answer that breaks the contract', async () => {
    serve(200, { ...SAMPLE_DATA, quotes: [{ id: 'not a number' }] });
    await expect(fetchQuotes(QUOTES_LEAD_UUID, 'en', null)).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('proceedReview maps a refused bot token to an ApiError carrying its field code', async () => {
    const requests = serve(422, { errors: { bot_token: 'invalid_value' } });
    const error = await proceedReview({ uuid: QUOTES_LEAD_UUID, policy_id: 101, addons: [12], bot_token: 'x', lang: 'en' }).catch((e: unknown) => e);
    expect(requests[0]!.path).toBe('/miscellaneous/travel/wiz/proceed-review');
    expect(requests[0]!.body).toMatchObject({ policy_id: 101, addons: [12], bot_token: 'x' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'invalid', status: 422, body: { data: { errors: { bot_token: 'invalid_value' } } } });
  });

  it('sendEmailByPage posts the spec names (pagename, agent_id, link)', async () => {
    const requests = serve(200, { sent: true });
    expect(await sendEmailByPage({ uuid: QUOTES_LEAD_UUID, pagename: 'compare-offers', agentId: 101, link: LINK, lang: 'en' })).toEqual({ sent: true });
    expect(requests[0]).toEqual({
      path: '/miscellaneous/travel/wiz/send-email-by-page',
      body: { uuid: QUOTES_LEAD_UUID, pagename: 'compare-offers', agent_id: 101, link: LINK, lang: 'en' },
    });
  });
});
