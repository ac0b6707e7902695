import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { blankValues } from '../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../machines/travel-details/travel-details.model';
import type { TravelDetailsReference, TravelDetailsValues } from '../../../../machines/travel-details/travel-details.types';
import { activateLanguage } from '../../i18n/locale';
import { keepDraftForReload } from '../../storage/reload-draft';
import { TravelDetailsForm } from './travel-details-form';

/**
 * Row 13(d) of issue 8: the language switch stores the language and reloads the page; what the
 * customer had typed in the travel details form comes back after the reload. A reload is an
 * unmount plus a fresh mount from the same (blank) initial values; sessionStorage survives.
 */

const reference: TravelDetailsReference = {
  countries: [{ value: '250', label: 'France' }],
  phoneCodes: [{ value: '+961', label: '+961 Lebanon' }],
  maxTravellers: 8,
  familyChildMaxAge: 18,
};

function mount(initialValues: TravelDetailsValues = blankValues(EMPTY_PREFILL)) {
  const ui = (values: TravelDetailsValues) => (
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <TravelDetailsForm initialValues={values} reference={reference} today="2026-06-15" serverErrors={{}} submitting={false} onSubmit={vi.fn()} />
      </MantineProvider>
    </I18nProvider>
  );
  const result = render(ui(initialValues));
  return { reset: (values: TravelDetailsValues) => result.rerender(ui(values)) };
}

const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
const name = () => input(/^Full name/);
const email = () => input(/^Email/);
const phone = () => input(/^Phone number/);
const type = (element: HTMLInputElement, value: string) => {
  fireEvent.change(element, { target: { value } });
  fireEvent.blur(element);
};

/** What the language switch does before its reload, then the reload itself. */
function switchLanguageAndReload() {
  keepDraftForReload();
  cleanup();
}

beforeAll(async () => {
  await activateLanguage('en');
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

// Mounting Mantine's form is slow on a loaded machine; the behaviour is not about time.
describe('row 13(d): the language switch keeps what was typed', () => {
  it('row 13(d): name, e-mail and phone typed before the switch are in the form after the reload', () => {
    mount();
    type(name(), 'Rana Haddad');
    type(email(), 'rana@example.com');
    type(phone(), '71123456');
    switchLanguageAndReload();

    mount();
    expect(name().value).toBe('Rana Haddad');
    expect(email().value).toBe('rana@example.com');
    expect(phone().value).toBe('71123456');
  });

  it('row 13(d): the draft comes back once: a later reload without a switch starts from the saved values', () => {
    mount();
    type(name(), 'Rana Haddad');
    switchLanguageAndReload();
    mount();
    expect(name().value).toBe('Rana Haddad');
    cleanup();
    mount();
    expect(name().value).toBe('');
  });

  it('row 13(d): a form reset before any edit (the leads chooser\'s "Enter new details") keeps the draft; an edit ends it', () => {
    mount();
    type(name(), 'Rana Haddad');
    switchLanguageAndReload();
    const { reset } = mount();
    act(() => reset(blankValues(EMPTY_PREFILL)));
    expect(name().value).toBe('Rana Haddad');
    type(name(), 'Rana H');
    act(() => reset(blankValues(EMPTY_PREFILL)));
    expect(name().value).toBe('');
  });

  it('row 13(d): nothing is kept when no form is on screen', () => {
    keepDraftForReload();
    expect(sessionStorage.getItem('reload_draft')).toBeNull();
  });
});
