import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '../../contract/endpoint';
import { AppContext, type AppContextValue } from './app-context';
import { LanguageSwitch } from './language-switch';
import { COMPANY_INFO_FALLBACK } from './company-info.fallback';

/**
 * Issue 38 (WCAG 2.4.3): the switch reloads the page (spec §1), and the reloaded page gives the
 * focus back to the switch instead of leaving it on <body>. A reload is an unmount, then a fresh
 * mount in the other language; sessionStorage survives it.
 */

function mount(lang: Language, switchLanguage: (lang: Language) => void = vi.fn()) {
  const context: AppContextValue = { lang, companyInfo: COMPANY_INFO_FALLBACK[lang], mainSiteUrl: 'https://safar.example', switchLanguage, showSystemError: vi.fn() };
  render(
    <MantineProvider env="test">
      <AppContext.Provider value={context}>
        <button type="button">before</button>
        <LanguageSwitch />
      </AppContext.Provider>
    </MantineProvider>,
  );
  return screen.getByTestId('language-switch');
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('issue 38: the language switch keeps the focus across its reload', () => {
  it('after the switch, the reloaded page (in the other language) puts the focus on the switch', () => {
    const switchLanguage = vi.fn();
    const before = mount('en', switchLanguage);
    before.focus();
    fireEvent.click(before);
    expect(switchLanguage).toHaveBeenCalledWith('ar');
    cleanup();

    const after = mount('ar');
    expect(after.textContent).toBe('English');
    expect(document.activeElement).toBe(after);
  });

  it('only once: a later load of the page leaves the focus alone', () => {
    fireEvent.click(mount('en'));
    cleanup();
    mount('ar');
    cleanup();
    mount('ar');
    expect(document.activeElement).toBe(document.body);
  });

  it('a page loaded without a switch leaves the focus alone', () => {
    mount('en');
    expect(document.activeElement).toBe(document.body);
  });
});
