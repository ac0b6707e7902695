import { Button, useMatches } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { keepDraftForReload } from '../storage/reload-draft';
import { useApp } from './app-context';
import classes from './shell.module.css';

/**
 * Offers the other language, written in that language, as bilingual sites do. On a phone the icon
 * is dropped and the button is compact, so the header fits 320 px even before the web fonts arrive (fallback fonts run wider).
 */
export function LanguageSwitch() {
  const { lang, switchLanguage } = useApp();
  const other = lang === 'en' ? 'ar' : 'en';
  const size = useMatches({ base: 'compact-md', xs: 'sm' });
  return (
    <Button
      variant="light"
      size={size}
      leftSection={<IconLanguage size={18} aria-hidden="true" />}
      classNames={{ section: classes.languageIcon }}
      onClick={() => {
        // What was typed survives the reload (issue 8 row 13): the form on screen takes it back.
        keepDraftForReload();
        switchLanguage(other);
      }}
      lang={other}
      data-testid="language-switch"
    >
      {other === 'ar' ? 'العربية' : 'English'}
    </Button>
  );
}
