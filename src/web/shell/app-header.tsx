import { ActionIcon, Anchor, Container, Group, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconPhone } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useLingui } from '@lingui/react/macro';
import { useApp } from './app-context';
import { LanguageSwitch } from './language-switch';
import { Logo } from './logo';
import classes from './shell.module.css';

/** Logo, WhatsApp, toll-free number and the language switch (spec §1). */
export function AppHeader() {
  const { t } = useLingui();
  const { companyInfo } = useApp();
  const tollFree = companyInfo.toll_free_number;
  // On the narrowest phones (320 px) the icons sit closer so the whole logo still fits.
  const narrow = useMediaQuery('(max-width: 25em)');
  const iconSize = narrow ? 'md' : 'lg';
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Anchor href="/traveller-details" underline="never" miw={0} aria-label={t`Safar home: travel insurance`}>
          <Logo label="Safar" />
        </Anchor>
        <Group gap={narrow ? 4 : 'sm'} wrap="nowrap">
          <Group gap="md" visibleFrom="sm" wrap="nowrap">
            <Anchor href={companyInfo.whatsapp_url} target="_blank" rel="noopener" className={classes.contactLink}>
              <IconBrandWhatsapp size={20} aria-hidden="true" />
              <Text span fz="sm" fw={600}>{t`WhatsApp us`}</Text>
            </Anchor>
            <Anchor href={companyInfo.toll_free_number_tel} className={classes.contactLink}>
              <IconPhone size={20} aria-hidden="true" />
              <Text span fz="sm" fw={600}>
                {t`Toll-free`} <bdi dir="ltr">{companyInfo.toll_free_number}</bdi>
              </Text>
            </Anchor>
          </Group>
          <ActionIcon
            component="a"
            href={companyInfo.whatsapp_url}
            target="_blank"
            rel="noopener"
            hiddenFrom="sm"
            variant="subtle"
            size={iconSize}
            aria-label={t`WhatsApp us`}
          >
            <IconBrandWhatsapp size={22} aria-hidden="true" />
          </ActionIcon>
          <ActionIcon
            component="a"
            href={companyInfo.toll_free_number_tel}
            hiddenFrom="sm"
            variant="subtle"
            size={iconSize}
            aria-label={t`Call us toll-free on ${tollFree}`}
          >
            <IconPhone size={22} aria-hidden="true" />
          </ActionIcon>
          <LanguageSwitch />
        </Group>
      </Container>
    </header>
  );
}
