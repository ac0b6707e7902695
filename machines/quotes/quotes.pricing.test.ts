import { describe, expect, it } from 'vitest';
import { QUOTES_FAILURES, SAMPLE_QUOTES } from './quotes.model';
import { isBotCheckRefused, isBotTokenSpent, isQuoteExpired, restoredChoices, sortQuotes } from './quotes.pricing';

const [first, second, third, fourth] = SAMPLE_QUOTES as [(typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0]];

const refusal = (status: number, errors: Record<string, string> = {}) => ({ kind: 'rejected', status, body: { status, message: 'refused', data: { errors } } });

describe('sortQuotes', () => {
  it('sorts by price when asked for price, and by medical limit when asked for that', () => {
    const cheapLow = { ...first, premium: 1000, medical_limit_usd: 10 };
    const dearHigh = { ...second, premium: 9000, medical_limit_usd: 900_000 };
    expect(sortQuotes([dearHigh, cheapLow], 'price').map((quote) => quote.id)).toEqual([cheapLow.id, dearHigh.id]);
    expect(sortQuotes([cheapLow, dearHigh], 'medical').map((quote) => quote.id)).toEqual([dearHigh.id, cheapLow.id]);
  });
});

describe('reading a refused choice', () => {
  it('reads nothing from what is not a failed call of the web’s shape', () => {
    for (const error of [undefined, null, 'refused', new Error('bug'), { status: 409 }, QUOTES_FAILURES.network]) {
      expect([isBotCheckRefused(error), isBotTokenSpent(error), isQuoteExpired(error)]).toEqual([false, false, false]);
    }
  });

  it('tells a refused bot token, and a spent one', () => {
    expect([isBotCheckRefused(QUOTES_FAILURES.botRefused), isBotTokenSpent(QUOTES_FAILURES.botRefused)]).toEqual([true, false]);
    expect([isBotCheckRefused(QUOTES_FAILURES.botSpent), isBotTokenSpent(QUOTES_FAILURES.botSpent)]).toEqual([true, true]);
    expect([isBotCheckRefused(QUOTES_FAILURES.server), isBotTokenSpent(QUOTES_FAILURES.server)]).toEqual([false, false]);
  });

  it('takes a 409, a refused policy_id or a quote_expired code as an expired quote, and nothing else', () => {
    expect(isQuoteExpired(refusal(409))).toBe(true);
    expect(isQuoteExpired(refusal(422, { policy_id: 'invalid_value' }))).toBe(true);
    expect(isQuoteExpired(refusal(404, { quote: 'quote_expired' }))).toBe(true);
    expect(isQuoteExpired(refusal(422, { lang: 'invalid_value' }))).toBe(false);
    expect(isQuoteExpired({ kind: 'server', status: 500, body: null })).toBe(false);
  });
});

describe('restoredChoices', () => {
  it('keeps at most 3 compared plans, by compare id, dropping those no longer quoted', () => {
    const restored = restoredChoices(SAMPLE_QUOTES, { compareIds: [second.compare_id, 'gone', first.compare_id, third.compare_id, fourth.compare_id], addons: {} });
    expect(restored.compareSelection).toEqual([second.id, first.id, third.id]);
  });
});
