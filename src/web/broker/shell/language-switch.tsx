import { Button } from '@mantine/core';
import { useState } from 'react';
import { useLanguage } from '../i18n/language-provider';

/** Offers the other language, written in that language. */
export function LanguageSwitch() {
  const { lang, setLanguage } = useLanguage();
  const [busy, setBusy] = useState(false);
  const other = lang === 'en' ? 'ar' : 'en';
  return (
    <Button
      variant="light"
      size="compact-md"
      lang={other}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void setLanguage(other).finally(() => setBusy(false));
      }}
      data-testid="language-switch"
    >
      {other === 'ar' ? 'العربية' : 'English'}
    </Button>
  );
}
