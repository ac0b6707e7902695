import { Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useApp } from './app-context';

/** Offers the other language, written in that language, as bilingual sites do. */
export function LanguageSwitch() {
  const { lang, switchLanguage } = useApp();
  const other = lang === 'en' ? 'ar' : 'en';
  return (
    <Button
      variant="light"
      size="sm"
      leftSection={<IconLanguage size={18} aria-hidden="true" />}
      onClick={() => switchLanguage(other)}
      lang={other}
      data-testid="language-switch"
    >
      {other === 'ar' ? 'العربية' : 'English'}
    </Button>
  );
}
