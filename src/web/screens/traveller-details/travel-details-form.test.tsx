import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, addYears, annualEndDate } from '../../../contract/dates';
import type { TravelDetailsErrors } from '../../../contract/travel-details.rules';
import { activateLanguage, directionOf } from '../../i18n/locale';
import { TRAVEL_DETAILS_MESSAGES } from '../../i18n/validation-messages';
import { TravelDetailsForm } from './travel-details-form';
import { blankValues } from '../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../machines/travel-details/travel-details.model';
import type { TravelDetailsValues, TravelDetailsReference } from '../../../../machines/travel-details/travel-details.types';

/**
 * The travel details form as a user meets it: typed text, clicks, blur, submit. Every message
 * of spec §5 that the client shows is checked by its exact English text.
 */

const TODAY = '2026-06-15';
const reference: TravelDetailsReference = {
  countries: [
    { value: '250', label: 'France' },
    { value: '826', label: 'United Kingdom' },
    { value: '784', label: 'United Arab Emirates' },
  ],
  phoneCodes: [
    { value: '+961', label: '+961 Lebanon' },
    { value: '+33', label: '+33 France' },
    { value: '+971', label: '+971 United Arab Emirates' },
  ],
  maxTravellers: 8,
  familyChildMaxAge: 18,
};

/** DD/MM/YYYY for a "YYYY-MM-DD" date, as typed. */
const typed = (iso: string) => iso.split('-').reverse().join('/');
const yearsAgo = (years: number) => addYears(TODAY, -years);

function validValues(overrides: Partial<TravelDetailsValues> = {}): TravelDetailsValues {
  return {
    ...blankValues(EMPTY_PREFILL),
    name: 'Rana Haddad',
    email: 'rana@example.com',
    phone_number: '71123456',
    start_date: addDays(TODAY, 7),
    end_date: addDays(TODAY, 14),
    destination_id: [250],
    travellers_info: [{ dob: '1990-05-01', first_name: null, middle_name: null, last_name: null, relationship_type_id: null }],
    ...overrides,
  };
}

function travellers(...dobs: (string | null)[]) {
  return dobs.map((dob) => ({ dob, first_name: null, middle_name: null, last_name: null, relationship_type_id: null }));
}

interface RenderOptions {
  initialValues?: TravelDetailsValues;
  serverErrors?: TravelDetailsErrors;
  submitting?: boolean;
  dir?: 'ltr' | 'rtl';
}

function renderForm(options: RenderOptions = {}) {
  const onSubmit = vi.fn<(values: TravelDetailsValues) => void>();
  const props = {
    initialValues: options.initialValues ?? blankValues(EMPTY_PREFILL),
    reference,
    today: TODAY,
    serverErrors: options.serverErrors ?? {},
    submitting: options.submitting ?? false,
    onSubmit,
  };
  const ui = (p: typeof props) => (
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={options.dir ?? 'ltr'} detectDirection={false}>
        <MantineProvider env="test">
          <TravelDetailsForm {...p} />
        </MantineProvider>
      </DirectionProvider>
    </I18nProvider>
  );
  const result = render(ui(props));
  return { ...result, onSubmit, props, rerenderWith: (changes: Partial<typeof props>) => result.rerender(ui({ ...props, ...changes })) };
}

// Mantine marks required labels with an aria-hidden " *", so labels are matched from the start.
// The input is picked out of the other elements its label names (a select's list box).
function labelled(label: string): HTMLInputElement {
  const pattern = new RegExp(`^${label.replace(/[()+]/g, '\\$&')}( \\*)?$`);
  const inputs = screen.getAllByLabelText(pattern).filter((element) => element.tagName === 'INPUT');
  if (inputs.length !== 1) throw new Error(`${inputs.length} inputs labelled ${label}`);
  return inputs[0] as HTMLInputElement;
}

/** The error message linked to a field through aria-describedby, or null. */
function errorOf(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id.endsWith('-error'));
  const texts = ids.map((id) => document.getElementById(id)?.textContent ?? '').filter(Boolean);
  return texts[0] ?? null;
}

function type(input: HTMLElement, value: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
}
function typeAndLeave(input: HTMLElement, value: string) {
  type(input, value);
  fireEvent.blur(input);
}

/** Opens a Mantine select by its label and clicks an option of its own list. */
function pickOption(label: string, option: RegExp | string) {
  const input = labelled(label);
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
  if (!list) throw new Error(`${label} did not open its list`);
  // Mantine's test environment skips the open transition, so the list counts as hidden.
  fireEvent.click(within(list).getByRole('option', { name: option, hidden: true }));
}

const proceed = () => fireEvent.click(screen.getByRole('button', { name: 'Proceed' }));
const members = () => screen.getByTestId('travellers-members');
const dobInput = (index: number) => labelled(index === 0 ? 'Traveller 1 (you)' : `Traveller ${index + 1}`);

beforeAll(async () => {
  await activateLanguage('en');
});
afterEach(() => cleanup());

interface MessageCase {
  behaviour: string;
  initialValues?: TravelDetailsValues;
  act: () => void;
  field: () => HTMLElement;
  message: string | null;
  /** What the input holds afterwards, when that is part of the rule. */
  inputValue?: string;
}

const FAMILY_OF = (...dobs: string[]) => validValues({ no_of_traveller: dobs.length, travellers_info: travellers(...dobs) });
const tickFamily = () => fireEvent.click(screen.getByRole('checkbox', { name: /^We are travelling as a family/ }));
const familyBox = () => screen.getByRole('checkbox', { name: /^We are travelling as a family/ });

const cases: MessageCase[] = [
  // Full name
  { behaviour: 'a 62-character name is accepted', act: () => typeAndLeave(labelled('Full name'), 'A'.repeat(62)), field: () => labelled('Full name'), message: null, inputValue: 'A'.repeat(62) },
  { behaviour: 'the 63rd character of a name is not accepted', act: () => typeAndLeave(labelled('Full name'), 'A'.repeat(63)), field: () => labelled('Full name'), message: null, inputValue: 'A'.repeat(62) },
  {
    behaviour: 'a name longer than 62 characters that reaches the form is refused by the rules',
    initialValues: validValues({ name: 'A'.repeat(63) }),
    act: proceed,
    field: () => labelled('Full name'),
    message: 'Name must be at most 62 characters',
  },
  { behaviour: 'a second apostrophe in the name is refused', act: () => typeAndLeave(labelled('Full name'), "Rana O'Neil D'Souza"), field: () => labelled('Full name'), message: "Only character a-z, - and ' allowed" },
  { behaviour: 'a second hyphen in the name is refused', act: () => typeAndLeave(labelled('Full name'), 'Rana Abi-Nader-Haddad'), field: () => labelled('Full name'), message: "Only character a-z, - and ' allowed" },
  { behaviour: 'English typing drops digits and symbols from the name', act: () => typeAndLeave(labelled('Full name'), 'Rana2 Hadd@ad'), field: () => labelled('Full name'), message: null, inputValue: 'Rana Haddad' },
  { behaviour: 'an empty name is required', act: () => typeAndLeave(labelled('Full name'), ''), field: () => labelled('Full name'), message: 'Please enter your first name, last name or full name' },
  // Email
  { behaviour: 'an empty email is required', act: () => typeAndLeave(labelled('Email'), ''), field: () => labelled('Email'), message: 'Please enter your email' },
  { behaviour: 'an invalid email is refused', act: () => typeAndLeave(labelled('Email'), 'rana@example'), field: () => labelled('Email'), message: 'Email address must be valid' },
  { behaviour: 'a valid email is accepted', act: () => typeAndLeave(labelled('Email'), 'rana@example.com'), field: () => labelled('Email'), message: null },
  // Phone, +961
  { behaviour: 'an empty phone number is required', act: () => typeAndLeave(labelled('Phone number'), ''), field: () => labelled('Phone number'), message: 'Please enter phone number' },
  { behaviour: '+961 with 6 digits is too short', act: () => typeAndLeave(labelled('Phone number'), '711234'), field: () => labelled('Phone number'), message: 'Please enter at least 7 digits and max 8 digits.' },
  { behaviour: '+961 with 7 digits is accepted', act: () => typeAndLeave(labelled('Phone number'), '7112345'), field: () => labelled('Phone number'), message: null },
  { behaviour: '+961 with 8 digits is accepted', act: () => typeAndLeave(labelled('Phone number'), '71123456'), field: () => labelled('Phone number'), message: null },
  { behaviour: '+961 does not accept a 9th digit', act: () => typeAndLeave(labelled('Phone number'), '711234567'), field: () => labelled('Phone number'), message: null, inputValue: '71123456' },
  { behaviour: 'the phone number keeps digits only', act: () => typeAndLeave(labelled('Phone number'), '71-12 34a5'), field: () => labelled('Phone number'), message: null, inputValue: '7112345' },
  // Phone, another code
  ...(
    [
      ['7 digits is too short', '1234567', 'Please enter at least 8 digits and max 10 digits.', undefined],
      ['8 digits is accepted', '12345678', null, undefined],
      ['10 digits is accepted', '1234567890', null, undefined],
      ['an 11th digit is not accepted', '12345678901', null, '1234567890'],
    ] as const
  ).map(([what, digits, message, inputValue]): MessageCase => ({
    behaviour: `+33 with ${what}`,
    act: () => {
      pickOption('Country code', /^\+33/);
      typeAndLeave(labelled('Phone number'), digits);
    },
    field: () => labelled('Phone number'),
    message,
    inputValue,
  })),
  // Dates of birth
  { behaviour: 'a typed future date of birth is cleared and asked again', act: () => typeAndLeave(dobInput(0), typed(addDays(TODAY, 1))), field: () => dobInput(0), message: 'Please select correct date of birth', inputValue: '' },
  { behaviour: 'an incomplete date of birth is cleared', act: () => typeAndLeave(dobInput(0), '12/05/19'), field: () => dobInput(0), message: 'Please select correct date of birth', inputValue: '' },
  { behaviour: 'an impossible date of birth (31/02) is cleared', act: () => typeAndLeave(dobInput(0), '31/02/1990'), field: () => dobInput(0), message: 'Please select correct date of birth', inputValue: '' },
  { behaviour: 'a date of birth more than 100 years back is cleared', act: () => typeAndLeave(dobInput(0), typed(addDays(yearsAgo(100), -1))), field: () => dobInput(0), message: 'Please select correct date of birth', inputValue: '' },
  { behaviour: 'a typed date keeps digits and slashes only, 10 at most', act: () => type(dobInput(0), 'a1x2/05/1990123'), field: () => dobInput(0), message: null, inputValue: '12/05/1990' },
  { behaviour: 'typing digits only adds the slashes', act: () => typeAndLeave(dobInput(0), '01051990'), field: () => dobInput(0), message: null, inputValue: '01/05/1990' },
  // Family
  {
    behaviour: 'family with a first traveller of 17 says the parent is missing',
    initialValues: FAMILY_OF(yearsAgo(17), yearsAgo(40)),
    act: tickFamily,
    field: () => dobInput(0),
    message: 'Parent is not added',
  },
  {
    behaviour: 'row 13(c): a minor typed as the first traveller of a family reads "Parent is not added", the date kept',
    initialValues: { ...FAMILY_OF(yearsAgo(40), yearsAgo(10)), is_family: true },
    act: () => typeAndLeave(dobInput(0), typed(yearsAgo(12))),
    field: () => dobInput(0),
    message: 'Parent is not added',
    inputValue: typed(yearsAgo(12)),
  },
  { behaviour: 'family with a first traveller of exactly 18 is accepted', initialValues: FAMILY_OF(yearsAgo(18), yearsAgo(40)), act: tickFamily, field: () => dobInput(0), message: null },
  {
    behaviour: 'family with three adults is refused',
    initialValues: FAMILY_OF(yearsAgo(45), yearsAgo(43), yearsAgo(19)),
    act: tickFamily,
    field: familyBox,
    message: 'Kindly untick "We are travelling as a family": a child is 18+ or a parent is over 70 years of age',
  },
  {
    behaviour: 'family with a traveller aged 71 is refused',
    initialValues: FAMILY_OF(yearsAgo(45), yearsAgo(71)),
    act: tickFamily,
    field: familyBox,
    message: 'Kindly untick "We are travelling as a family": a child is 18+ or a parent is over 70 years of age',
  },
  { behaviour: 'family with a traveller aged 70 is accepted', initialValues: FAMILY_OF(yearsAgo(45), addDays(yearsAgo(71), 1)), act: tickFamily, field: familyBox, message: null },
  { behaviour: 'family with two parents and a child of 17 is accepted', initialValues: FAMILY_OF(yearsAgo(45), yearsAgo(43), yearsAgo(17)), act: tickFamily, field: familyBox, message: null },
  // Countries
  { behaviour: 'leaving the destinations empty asks for one', act: () => fireEvent.blur(labelled('Destinations')), field: () => labelled('Destinations'), message: 'Please select destination' },
  { behaviour: 'a picked destination is accepted', act: () => pickOption('Destinations', 'France'), field: () => labelled('Destinations'), message: null },
  {
    behaviour: 'travelling to Lebanon without a source asks for one',
    act: () => {
      fireEvent.click(screen.getByRole('radio', { name: 'Travelling to Lebanon' }));
      fireEvent.blur(labelled('Travelling from'));
    },
    field: () => labelled('Travelling from'),
    message: 'Please select source',
  },
  // Trip dates
  { behaviour: 'a start date of yesterday is cleared and refused', act: () => typeAndLeave(labelled('Start date'), typed(addDays(TODAY, -1))), field: () => labelled('Start date'), message: 'Please select correct date', inputValue: '' },
  { behaviour: 'a start date of today is accepted', act: () => typeAndLeave(labelled('Start date'), typed(TODAY)), field: () => labelled('Start date'), message: null, inputValue: typed(TODAY) },
  {
    behaviour: 'an end date before the start date is cleared and refused',
    initialValues: validValues({ start_date: addDays(TODAY, 10), end_date: null }),
    act: () => typeAndLeave(labelled('End date'), typed(addDays(TODAY, 9))),
    field: () => labelled('End date'),
    message: 'Please select correct date',
    inputValue: '',
  },
  {
    behaviour: 'moving the start date after the end date clears the end date',
    initialValues: validValues({ start_date: addDays(TODAY, 1), end_date: addDays(TODAY, 5) }),
    act: () => typeAndLeave(labelled('Start date'), typed(addDays(TODAY, 6))),
    field: () => labelled('End date'),
    message: null,
    inputValue: '',
  },
];

describe('TravelDetailsForm messages and boundaries (spec §5)', () => {
  it.each(cases)('$behaviour', (c) => {
    renderForm({ initialValues: c.initialValues });
    c.act();
    const field = c.field();
    expect(errorOf(field)).toBe(c.message);
    expect(c.inputValue === undefined ? undefined : (field as HTMLInputElement).value).toBe(c.inputValue);
  });
});

describe('TravelDetailsForm behaviour', () => {
  it('starts from Lebanon with one traveller, +961 and a single trip', () => {
    renderForm();
    expect(screen.getByRole('radio', { name: 'Travelling from Lebanon' }).getAttribute('aria-checked')).toBe('true');
    expect(labelled('Destinations')).toBeTruthy();
    expect(screen.queryByLabelText(/^Travelling from/)).toBeNull();
    expect(labelled('Country code').value).toBe('+961');
    expect(labelled('Number of travellers').value).toBe('1');
    expect((screen.getByRole('radio', { name: 'Single trip' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: /family/ })).toBeNull();
  });

  it('annual multi-trip sets the end date to start + 12 months − 1 day and locks it', () => {
    const start = addDays(TODAY, 20);
    renderForm({ initialValues: validValues({ start_date: start, end_date: null }) });
    fireEvent.click(screen.getByRole('radio', { name: 'Annual multi-trip' }));
    const end = labelled('End date');
    expect(end.value).toBe(typed(annualEndDate(start)));
    expect(end.value).toBe(typed(addDays(addYears(start, 1), -1)));
    expect(end.disabled).toBe(true);
    expect(screen.getByText('Annual cover ends 12 months after the start date, less one day.')).toBeTruthy();
    // A new start date moves the locked end with it.
    typeAndLeave(labelled('Start date'), typed(addDays(TODAY, 30)));
    expect(labelled('End date').value).toBe(typed(annualEndDate(addDays(TODAY, 30))));
  });

  it('shows the trip length once both dates are set', () => {
    renderForm({ initialValues: validValues({ start_date: addDays(TODAY, 1), end_date: null }) });
    expect(screen.queryByText(/days?$/)).toBeNull();
    typeAndLeave(labelled('End date'), typed(addDays(TODAY, 8)));
    expect(screen.getByText('8 days')).toBeTruthy();
  });

  it('the stepper grows and shrinks the date-of-birth list, and shows family only above one traveller', () => {
    renderForm();
    const add = screen.getByRole('button', { name: 'Add a traveller' });
    fireEvent.click(add);
    fireEvent.click(add);
    expect(labelled('Number of travellers').value).toBe('3');
    expect(within(members()).getAllByRole('textbox')).toHaveLength(3);
    expect(dobInput(2)).toBeTruthy();
    tickFamily();
    expect((familyBox() as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('A family plan covers you, your spouse and your children under 18.')).toBeTruthy();
    const remove = screen.getByRole('button', { name: 'Remove a traveller' });
    fireEvent.click(remove);
    fireEvent.click(remove);
    expect(within(members()).getAllByRole('textbox')).toHaveLength(1);
    expect(screen.queryByRole('checkbox', { name: /family/ })).toBeNull();
    // Back to two: the family box is shown again, unticked.
    fireEvent.click(add);
    expect((familyBox() as HTMLInputElement).checked).toBe(false);
  });

  it('the stepper stops at 1 and at the maximum number of travellers', () => {
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Remove a traveller' }));
    expect(labelled('Number of travellers').value).toBe('1');
    const add = screen.getByRole('button', { name: 'Add a traveller' });
    for (let i = 0; i < 10; i += 1) fireEvent.click(add);
    expect(labelled('Number of travellers').value).toBe(String(reference.maxTravellers));
    expect(within(members()).getAllByRole('textbox')).toHaveLength(reference.maxTravellers);
  });

  it('the family tooltip prints the child age from the reference (RULINGS 7)', () => {
    const onSubmit = vi.fn();
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider env="test">
          <TravelDetailsForm
            initialValues={FAMILY_OF(yearsAgo(40), yearsAgo(10))}
            reference={{ ...reference, familyChildMaxAge: 21 }}
            today={TODAY}
            serverErrors={{}}
            submitting={false}
            onSubmit={onSubmit}
          />
        </MantineProvider>
      </I18nProvider>,
    );
    expect(screen.getByText('A family plan covers you, your spouse and your children under 21.')).toBeTruthy();
  });

  it('the family refusal prints the same child age as the rule when the broker sets 16 (RULINGS 7)', () => {
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider env="test">
          <TravelDetailsForm
            initialValues={FAMILY_OF(yearsAgo(45), yearsAgo(43), yearsAgo(16))}
            reference={{ ...reference, familyChildMaxAge: 16 }}
            today={TODAY}
            serverErrors={{}}
            submitting={false}
            onSubmit={vi.fn()}
          />
        </MantineProvider>
      </I18nProvider>,
    );
    tickFamily();
    expect(screen.getByText('Kindly untick "We are travelling as a family": a child is 16+ or a parent is over 70 years of age')).toBeTruthy();
  });

  it('lowering the travellers from 3 to 2 sends the removed saved traveller in deleted_members', () => {
    const saved = travellers(yearsAgo(40), yearsAgo(38), yearsAgo(10)).map((traveller, index) => ({ ...traveller, id: 11 + index }));
    const { onSubmit } = renderForm({ initialValues: validValues({ no_of_traveller: 3, travellers_info: saved }) });
    fireEvent.click(screen.getByRole('button', { name: 'Remove a traveller' }));
    proceed();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const values = onSubmit.mock.calls[0]![0];
    expect(values.deleted_members).toEqual([13]);
    expect(values.no_of_traveller).toBe(2);
    expect(values.travellers_info.map((t) => t.id)).toEqual([11, 12]);
  });

  it('submitting with a traveller without a date of birth shows the members message and focuses the members area', () => {
    const { onSubmit } = renderForm({ initialValues: validValues({ no_of_traveller: 2, travellers_info: travellers('1990-05-01', null) }) });
    proceed();
    expect(onSubmit).not.toHaveBeenCalled();
    const alert = within(members()).getByRole('alert');
    expect(alert.textContent).toContain('Mandatory traveller fields are required');
    expect(document.activeElement).toBe(members());
    expect(members().getAttribute('aria-describedby')).toBe(alert.id);
    expect(errorOf(dobInput(1))).toBe('Please select correct date of birth');
  });

  it('submitting with problems shows them all and focuses the first one on screen', () => {
    const { onSubmit } = renderForm();
    proceed();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorOf(labelled('Destinations'))).toBe('Please select destination');
    expect(errorOf(labelled('Start date'))).toBe('Please select correct date');
    expect(errorOf(labelled('End date'))).toBe('Please select correct date');
    expect(errorOf(labelled('Full name'))).toBe('Please enter your first name, last name or full name');
    expect(errorOf(labelled('Phone number'))).toBe('Please enter phone number');
    expect(errorOf(labelled('Email'))).toBe('Please enter your email');
    expect(document.activeElement).toBe(labelled('Destinations'));
  });

  it('a problem in the contact details alone focuses that field', () => {
    renderForm({ initialValues: validValues({ email: 'not-an-email' }) });
    proceed();
    expect(document.activeElement).toBe(labelled('Email'));
  });

  it('a first traveller too young for a family plan scrolls to the members area and focuses that date', () => {
    const scrolled: Element[] = [];
    const spy = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    renderForm({ initialValues: { ...FAMILY_OF(yearsAgo(17), yearsAgo(40)), is_family: true } });
    proceed();
    expect(scrolled.at(-1)).toBe(members());
    expect(document.activeElement).toBe(dobInput(0));
    expect(errorOf(dobInput(0))).toBe('Parent is not added');
    spy.mockRestore();
  });

  /** Issue 38: a known phone with a new e-mail is told what to do, not only refused. */
  const PHONE_TAKEN = 'Phone number already taken with another e-mail. Enter the e-mail you used before with this phone number, or use another phone number.';

  it('server errors show on their fields, focus the first, and clear when that field is edited', () => {
    const { rerenderWith, onSubmit } = renderForm({ initialValues: validValues() });
    rerenderWith({ serverErrors: { email: 'email_taken', phone_number: 'phone_taken' } });
    expect(errorOf(labelled('Email'))).toBe('Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.');
    expect(errorOf(labelled('Phone number'))).toBe(PHONE_TAKEN);
    expect(document.activeElement).toBe(labelled('Phone number'));
    expect(labelled('Email').value).toBe('rana@example.com');
    fireEvent.blur(labelled('Email'));
    expect(errorOf(labelled('Email'))).toBe('Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.');
    type(labelled('Email'), 'rana2@example.com');
    expect(errorOf(labelled('Email'))).toBeNull();
    expect(errorOf(labelled('Phone number'))).toBe(PHONE_TAKEN);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('an email_taken server error alone focuses the email field', () => {
    const { rerenderWith } = renderForm({ initialValues: validValues() });
    rerenderWith({ serverErrors: { email: 'email_taken' } });
    expect(screen.getByText('Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.')).toBeTruthy();
    expect(document.activeElement).toBe(labelled('Email'));
  });

  it('onSubmit receives the values, name trimmed, when they are valid', () => {
    const { onSubmit } = renderForm({ initialValues: validValues({ name: 'Rana  Abi Nader ' }) });
    proceed();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const values = onSubmit.mock.calls[0]![0];
    expect(values).toMatchObject({
      name: 'Rana Abi Nader',
      email: 'rana@example.com',
      phone_country_code: '+961',
      phone_number: '71123456',
      inbound_outbound: true,
      trip_type: 1,
      destination_id: [250],
      no_of_traveller: 1,
      is_family: false,
      deleted_members: [],
    });
    expect(values.travellers_info[0]).toMatchObject({ dob: '1990-05-01' });
  });

  it('onSubmit is not called while a rule fails', () => {
    const { onSubmit } = renderForm({ initialValues: validValues({ phone_number: '711234' }) });
    proceed();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(errorOf(labelled('Phone number'))).toBe('Please enter at least 7 digits and max 8 digits.');
  });

  it('travelling to Lebanon sends Lebanon as the destination and the picked source', () => {
    const { onSubmit } = renderForm({ initialValues: validValues() });
    fireEvent.click(screen.getByRole('radio', { name: 'Travelling to Lebanon' }));
    pickOption('Travelling from', 'United Kingdom');
    proceed();
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ inbound_outbound: false, destination_id: [422], source_id: 826 });
  });

  it('Proceed keeps the focus while submitting: it is aria-disabled, not disabled, and a press is ignored', () => {
    const { onSubmit, rerenderWith } = renderForm({ initialValues: validValues() });
    const button = screen.getByRole('button', { name: /Proceed/ }) as HTMLButtonElement;
    button.focus();
    rerenderWith({ submitting: true });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.disabled).toBe(false);
    expect(document.activeElement).toBe(button);
    proceed();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a new initialValues object resets the form', () => {
    const { rerenderWith } = renderForm({ initialValues: validValues() });
    typeAndLeave(labelled('Full name'), '');
    expect(errorOf(labelled('Full name'))).not.toBeNull();
    rerenderWith({ initialValues: validValues({ name: 'Karim Khoury' }) });
    expect(labelled('Full name').value).toBe('Karim Khoury');
    expect(errorOf(labelled('Full name'))).toBeNull();
  });
});

describe('TravelDetailsForm in Arabic', () => {
  beforeAll(async () => {
    await activateLanguage('ar');
  });
  afterAll(async () => {
    await activateLanguage('en');
  });

  it('shows Arabic labels and messages, right to left', () => {
    renderForm({ dir: directionOf('ar') });
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('radio', { name: 'السفر من لبنان' })).toBeTruthy();
    expect(labelled('الاسم الكامل')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'متابعة' }));
    expect(errorOf(labelled('الاسم الكامل'))).toBe(i18n._(TRAVEL_DETAILS_MESSAGES.name_required));
    expect(errorOf(labelled('الاسم الكامل'))).toMatch(/[\u0600-\u06FF]/);
  });

  it('uses logical CSS properties only, so the layout mirrors without special cases', () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const css = readFileSync(path.join(dir, 'form/travel-details-form.module.css'), 'utf8');
    expect(css).not.toMatch(/\b(margin|padding|border)-(left|right)\b|(^|[\s;{])(left|right)\s*:|text-align:\s*(left|right)|float:\s*(left|right)/m);
  });
});
