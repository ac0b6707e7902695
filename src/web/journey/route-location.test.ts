import { describe, expect, it } from 'vitest';
import { routeLocation } from './route-location';

const params = { step: 'compareQuotes' as const, path: '/compare-quotes', replace: false };

describe('routeLocation', () => {
  it('keeps the query string and writes the lead uuid and sid', () => {
    expect(routeLocation({ ...params, uuid: 'u1', sessionId: 's1' }, '?lang=ar&utm_source=x')).toEqual({
      pathname: '/compare-quotes',
      search: '?lang=ar&utm_source=x&uuid=u1&sid=s1',
    });
  });

  it('replaces session_id by sid', () => {
    expect(routeLocation({ ...params, uuid: 'u1', sessionId: 's2' }, '?session_id=s1').search).toBe('?uuid=u1&sid=s2');
  });

  it('removes uuid and sid when the journey has no lead', () => {
    expect(routeLocation({ ...params, path: '/traveller-details', uuid: null, sessionId: null }, '?uuid=u1&sid=s1&x=1')).toEqual({
      pathname: '/traveller-details',
      search: '?x=1',
    });
  });
});
