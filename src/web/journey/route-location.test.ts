// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { insuranceTypeOf, normalisedPath, routeLocation, withInsuranceType } from './route-location';

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

  it('keeps the payment attempt (ref) on /payment-result and drops it on any other step, so "Try again" leaves it behind', () => {
    const result = { step: 'paymentResult' as const, path: '/payment-result', replace: false, uuid: 'u1', sessionId: null };
    expect(routeLocation(result, '?uuid=u1&ref=SAF1-X-Y&lang=ar').search).toBe('?uuid=u1&ref=SAF1-X-Y&lang=ar');
    const checkout = { step: 'checkout' as const, path: '/checkout', replace: false, uuid: 'u1', sessionId: null };
    expect(routeLocation(checkout, '?uuid=u1&ref=SAF1-X-Y&lang=ar').search).toBe('?uuid=u1&lang=ar');
  });

  it('removes uuid and sid when the journey has no lead', () => {
    expect(routeLocation({ ...params, path: '/traveller-details', uuid: null, sessionId: null }, '?uuid=u1&sid=s1&x=1')).toEqual({
      pathname: '/traveller-details',
      search: '?x=1',
    });
  });
});

describe('normalisedPath', () => {
  it('row 5: collapses leading slashes, so "//traveller-details" stays a path of this origin', () => {
    expect(normalisedPath('//traveller-details')).toBe('/traveller-details');
    expect(normalisedPath('///x')).toBe('/x');
    expect(normalisedPath('//evil.example/compare-quotes')).toBe('/evil.example/compare-quotes');
    // The result can never be read as a protocol-relative URL of another origin.
    for (const odd of ['//x', '////', '/a//b', '//']) expect(new URL(normalisedPath(odd), 'https://safar.example').origin).toBe('https://safar.example');
  });

  it('keeps an ordinary path as it is', () => {
    expect(normalisedPath('/compare-quotes')).toBe('/compare-quotes');
    expect(normalisedPath('/')).toBe('/');
    expect(normalisedPath('')).toBe('/');
  });
});

describe('insurance_type', () => {
  it('row 4: reads 1 (single trip) and 2 (annual multi-trip), and ignores unknown values', () => {
    expect(insuranceTypeOf('?insurance_type=1')).toBe(1);
    expect(insuranceTypeOf('?uuid=u&insurance_type=2')).toBe(2);
    for (const search of ['', '?insurance_type=', '?insurance_type=3', '?insurance_type=annual', '?insurance_type=2x']) expect(insuranceTypeOf(search)).toBeNull();
  });

  it('row 4: writes insurance_type and keeps the rest of the query', () => {
    expect(withInsuranceType('?lang=ar&uuid=u1', 2)).toBe('?lang=ar&uuid=u1&insurance_type=2');
    expect(withInsuranceType('?insurance_type=2&x=1', 1)).toBe('?insurance_type=1&x=1');
    expect(withInsuranceType('', 1)).toBe('?insurance_type=1');
  });

  it('row 4: routing to another step keeps insurance_type', () => {
    expect(routeLocation({ ...params, uuid: 'u1', sessionId: null }, '?insurance_type=2').search).toBe('?insurance_type=2&uuid=u1');
  });
});
