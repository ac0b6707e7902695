import { ActionIcon, Anchor, Container, Group, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconPhone } from '@tabler/icons-react';
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
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Anchor href="/traveller-details" underline="never" aria-label={t`Safar home: travel insurance`}>
          <Logo label="Safar" />
        </Anchor>
        <Group gap="sm" wrap="nowrap">
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
            size="lg"
            aria-label={t`WhatsApp us`}
          >
            <IconBrandWhatsapp size={22} aria-hidden="true" />
          </ActionIcon>
          <ActionIcon
            component="a"
            href={companyInfo.toll_free_number_tel}
            hiddenFrom="sm"
            variant="subtle"
            size="lg"
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
