import { useEffect, useRef } from 'react';
import { Button, useMatches } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { sessionStore } from '../storage/local-store';
import { keepDraftForReload } from '../storage/reload-draft';
import { useApp } from './app-context';
import classes from './shell.module.css';

/**
 * Offers the other language, written in that language, as bilingual sites do. On a phone the icon
 * is dropped and the button is compact, so the header fits 320 px even before the web fonts arrive (fallback fonts run wider).
 * The switch reloads the page (spec §1); the reloaded page gives the focus back to the switch, so
 * a keyboard or screen-reader user goes on from where they were rather than from <body> (WCAG
 * 2.4.3, issue 38). The page renders only once its catalogue is loaded, so the switch's first
 * effect runs in the new language.
 */
export function LanguageSwitch() {
  const { lang, switchLanguage } = useApp();
  const other = lang === 'en' ? 'ar' : 'en';
  const size = useMatches({ base: 'compact-md', xs: 'sm' });
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (sessionStore.get('language_switched') === null) return;
    sessionStore.remove('language_switched');
    button.current?.focus();
  }, []);
  return (
    <Button
      ref={button}
      variant="light"
      size={size}
      leftSection={<IconLanguage size={18} aria-hidden="true" />}
      classNames={{ section: classes.languageIcon }}
      onClick={() => {
        // What was typed survives the reload (issue 8 row 13): the form on screen takes it back.
        keepDraftForReload();
        sessionStore.set('language_switched', lang);
        switchLanguage(other);
      }}
      lang={other}
      data-testid="language-switch"
    >
      {other === 'ar' ? 'العربية' : 'English'}
    </Button>
  );
}
