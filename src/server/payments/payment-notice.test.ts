import { describe, expect, it } from 'vitest';
import { malformedPayload, MAX_FIELD_LENGTH, MAX_NOTICE_FIELDS, parseNoticeFields } from './payment-notice';

const FORM = 'application/x-www-form-urlencoded';
const fieldsForm = (count: number) => Array.from({ length: count }, (_, index) => `f${index}=v`).join('&');

describe('parseNoticeFields', () => {
  it('decodes a URL-encoded form as browsers post it ("+" is a space, UTF-8 escapes), with a charset parameter', async () => {
    const body = 'customer_name=Rania+El+Haddad&response_message=%D8%AA%D9%85&amount=14763';
    expect(await parseNoticeFields(`${FORM}; charset=UTF-8`, body)).toEqual({ customer_name: 'Rania El Haddad', response_message: 'تم', amount: '14763' });
    expect(await parseNoticeFields('Application/X-WWW-Form-Urlencoded', 'a=1')).toEqual({ a: '1' });
  });

  it('keeps an empty value (signed as "key=") and a key named __proto__ as an ordinary field', async () => {
    const fields = await parseNoticeFields(FORM, '__proto__=x&token_name=');
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.entries(fields!)).toEqual([
      ['__proto__', 'x'],
      ['token_name', ''],
    ]);
  });

  it(`takes ${MAX_NOTICE_FIELDS} fields of ${MAX_FIELD_LENGTH} characters, and refuses one more field or one more character`, async () => {
    expect(Object.keys((await parseNoticeFields(FORM, fieldsForm(MAX_NOTICE_FIELDS)))!)).toHaveLength(MAX_NOTICE_FIELDS);
    expect(await parseNoticeFields(FORM, fieldsForm(MAX_NOTICE_FIELDS + 1))).toBeNull();
    expect(await parseNoticeFields(FORM, `a=${'x'.repeat(MAX_FIELD_LENGTH)}`)).toEqual({ a: 'x'.repeat(MAX_FIELD_LENGTH) });
    expect(await parseNoticeFields(FORM, `a=${'x'.repeat(MAX_FIELD_LENGTH + 1)}`)).toBeNull();
  });

  it('refuses what APS never sends: no field, an empty key, a key twice, a control character, another content type', async () => {
    for (const [contentType, body] of [
      [FORM, ''],
      [FORM, '=x'],
      [FORM, 'a=1&a=1'],
      [FORM, 'a=%00'],
      [FORM, 'a=line%0Abreak'],
      [FORM, 'a=%C2%85'],
      [undefined, 'a=1'],
      ['application/json', '{"a":"1"}'],
      ['text/plain', 'a=1'],
    ] as const) {
      expect({ contentType, body, fields: await parseNoticeFields(contentType, body) }).toEqual({ contentType, body, fields: null });
    }
  });

  it('reads a multipart form of text fields, and refuses one with a file part or no boundary', async () => {
    const form = new FormData();
    form.append('status', '14');
    form.append('amount', '100');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const contentType = request.headers.get('content-type')!;
    const body = await request.text();
    expect(await parseNoticeFields(contentType, body)).toEqual({ status: '14', amount: '100' });

    form.append('receipt', new Blob(['%PDF']), 'receipt.pdf');
    const withFile = new Request('http://x/', { method: 'POST', body: form });
    expect(await parseNoticeFields(withFile.headers.get('content-type')!, await withFile.text())).toBeNull();
    expect(await parseNoticeFields('multipart/form-data', body)).toBeNull();
  });
});

describe('malformedPayload', () => {
  it('keeps the content type and the first 2,000 characters, control characters and lone surrogates replaced', () => {
    expect(malformedPayload('text/plain', `a\u0000b\u001bc\ud800d${'x'.repeat(3_000)}`)).toEqual({
      _content_type: 'text/plain',
      _body: `a\ufffdb\ufffdc\ufffdd${'x'.repeat(MAX_FIELD_LENGTH - 7)}`,
    });
    expect(malformedPayload(undefined, '')).toEqual({ _content_type: '', _body: '' });
  });
});
