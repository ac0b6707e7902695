import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { requestCallBackEndpoint } from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { errorCodes } from './expect-envelope';
import { createLeadTestApp, leadBody, type LeadTestApp } from './lead-fixtures';

/**
 * Issue 8 rows 2 and 7 on the API (RULINGS 25, spec §9): numbers typed on an Arabic keyboard
 * are stored as Western digits, and a calling code that no country has is refused.
 */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

/** "71234567" written with Arabic-Indic (٠–٩) digits. */
const arabicDigits = (text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));
const persianDigits = (text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(0x06f0 + Number(digit)));

describe('row 2: add-customer-lead stores Western digits (RULINGS 25)', () => {
  it('row 2: a phone number and dates of birth in Arabic-keyboard digits are checked and stored as 0–9', async () => {
    const body = leadBody({ no_of_traveller: 2 });
    const phone = body.phone_number;
    const data = await app.save({
      ...body,
      phone_number: arabicDigits(`${phone.slice(0, 2)} ${phone.slice(2, 5)}-${phone.slice(5)}`),
      travellers_info: [{ dob: arabicDigits('1990-12-25') }, { dob: persianDigits('1992-01-31'), first_name: 'Karim', last_name: 'Haddad' }],
    });
    expect(data.customer).toMatchObject({ phone_number: phone, complete_phone_number: `+961${phone}` });
    const lead = await app.leadRow(data.uuid);
    expect(lead).toMatchObject({ phoneNumber: phone, completePhoneNumber: `+961${phone}` });
    const travellers = await app.travellerRows(lead.id);
    expect(travellers.map((row) => row.dob)).toEqual(['1990-12-25', '1992-01-31']);
    const customers = await app.db.select({ phone: t.customers.phoneNumber }).from(t.customers);
    expect(customers.map((row) => row.phone)).toContain(phone);
    expect(customers.every((row) => /^\d+$/.test(row.phone))).toBe(true);
  });

  it('row 2: trip dates written in Arabic-keyboard digits are read as dates', async () => {
    const data = await app.save(leadBody({ start_date: arabicDigits('2026-04-01'), end_date: arabicDigits('2026-04-10') }));
    expect(await app.leadRow(data.uuid)).toMatchObject({ startDate: '2026-04-01', endDate: '2026-04-10', noOfDays: 10 });
  });

  it('row 2: a leading +961 or 00961 in the phone number is dropped (RULINGS 25), the number stored as the national one', async () => {
    for (const [phone, national] of [
      ['+961 71 234 567', '71234567'],
      ['00961-71-234-568', '71234568'],
    ]) {
      const data = await app.save(leadBody({ phone_number: phone }));
      expect(data.customer.phone_number).toBe(national);
      expect(data.customer.complete_phone_number).toBe(`+961${national}`);
    }
  });

  it('row 2: a phone number with a letter, or another country’s prefix, is still refused with a field code', async () => {
    for (const phone of ['71a23456', '+33 6 12 34 56']) {
      const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ phone_number: phone }));
      expect(await errorCodes(res, 422)).toEqual({ phone_number: 'phone_digits_961' });
    }
  });
});

describe('row 7: an unknown calling code is refused (spec §9)', () => {
  it('row 7: add-customer-lead with phone_country_code "+9999" answers 422 with a field code and saves nothing', async () => {
    const before = (await app.db.select().from(t.leads)).length;
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody({ phone_country_code: '+9999', phone_number: '12345678' }));
    expect(await errorCodes(res, 422)).toEqual({ phone_country_code: 'phone_code_invalid' });
    expect((await app.db.select().from(t.leads)).length).toBe(before);
  });

  it('row 7: a calling code that a country has (+33) is still accepted', async () => {
    const data = await app.save(leadBody({ phone_country_code: '+33', phone_number: '612345678' }));
    expect(data.customer.complete_phone_number).toBe('+33612345678');
  });

  it('row 7: request-call-back with phone_country_code "+9999" answers 422 with a field code and stores nothing', async () => {
    const before = (await app.db.select().from(t.callBacks)).length;
    const res = await app.send(requestCallBackEndpoint.path, {
      name: 'Karim Khoury',
      email: 'karim@example.com',
      phone_country_code: '+9999',
      phone_number: '12345678',
    });
    expect(await errorCodes(res, 422)).toEqual({ phone_country_code: 'phone_code_invalid' });
    expect((await app.db.select().from(t.callBacks)).length).toBe(before);
  });
});
