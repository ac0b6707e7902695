import type { TextInputProps } from '@mantine/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountTravellerStep } from '../../../../tests/support/mount-traveller-step';
import { activateLanguage } from '../../i18n/locale';

/**
 * A key typed in a traveller's form at review draws that field, not the whole form (issue 35:
 * each key drew the five lists, the countries' among them, and the calendar again). Every text
 * field and list is counted as it is drawn, by its label, the real one inside.
 */

const { drawn, count } = vi.hoisted(() => {
  const drawn = new Map<string, number>();
  return { drawn, count: (label: unknown) => drawn.set(String(label), (drawn.get(String(label)) ?? 0) + 1) };
});

vi.mock('@mantine/core', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mantine/core')>();
  const { createElement } = await import('react');
  // React 19 hands `ref` on as a prop.
  const counted = (Real: typeof real.Select | typeof real.TextInput) => (props: TextInputProps) => (count(props.label), createElement(Real as typeof real.TextInput, props));
  return { ...real, Select: counted(real.Select), TextInput: counted(real.TextInput) };
});
vi.mock('../traveller-details/form/date-field', async (importOriginal) => {
  const real = await importOriginal<typeof import('../traveller-details/form/date-field')>();
  return { ...real, DateField: (props: Parameters<typeof real.DateField>[0]) => (count(props.label), real.DateField(props)) };
});

/** A provider-3 traveller: every field of the form is shown (title, names, date, gender, passport, residence, nationality). */
async function mountForm() {
  await mountTravellerStep();
  await screen.findByTestId('traveller-form');
}

const field = (role: 'textbox' | 'combobox', label: string) => within(screen.getByTestId('traveller-form')).getByRole(role, { name: label }) as HTMLInputElement;

/** Types `text` into an input key by key, as the change events of a person typing. */
function typeKeys(input: HTMLElement, text: string) {
  for (let end = 1; end <= text.length; end++) fireEvent.change(input, { target: { value: text.slice(0, end) } });
}

/** The draws since the last reset, by label, without the fields drawn none. */
const draws = () => Object.fromEntries([...drawn].filter(([, times]) => times > 0));

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => drawn.clear());
afterEach(() => cleanup());

describe("a traveller's form at review draws the field a key changes", () => {
  it('typing a middle name draws that field at each key, and no other field', async () => {
    await mountForm();
    // Every field was drawn to mount the form.
    const labels = ['Title', 'First name', 'Middle name (optional)', 'Last name', 'Date of birth', 'Gender', 'Passport number', 'Country of residence', 'Nationality'];
    expect(labels.filter((label) => !drawn.get(label))).toEqual([]);
    drawn.clear();
    typeKeys(field('textbox', 'Middle name (optional)'), 'Maria');
    expect(field('textbox', 'Middle name (optional)').value).toBe('Maria');
    expect(draws()).toEqual({ 'Middle name (optional)': 5 });
  });

  it('a passport typed with a character no passport has draws the passport field alone, with its error', async () => {
    await mountForm();
    drawn.clear();
    typeKeys(field('textbox', 'Passport number'), 'AB1#');
    expect(draws()).toEqual({ 'Passport number': 4 });
    expect(screen.getByText('Only characters a-z and 0-9 are allowed')).toBeTruthy();
  });

  it('a country chosen in a list draws that list, and the other fields keep what they show', async () => {
    await mountForm();
    typeKeys(field('textbox', 'First name'), 'Rima');
    drawn.clear();
    const nationality = field('combobox', 'Nationality');
    fireEvent.click(nationality);
    const list = document.getElementById(nationality.getAttribute('aria-controls') ?? '');
    fireEvent.click(within(list!).getAllByRole('option', { hidden: true })[0]!);
    expect(Object.keys(draws())).toEqual(['Nationality']);
    expect(field('textbox', 'First name').value).toBe('Rima');
  });
});
