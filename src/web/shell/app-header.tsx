import { ActionIcon, Anchor, Container, Group, Text, UnstyledButton } from '@mantine/core';
import { IconBrandWhatsapp, IconPhone, IconPhoneCall } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useLingui } from '@lingui/react/macro';
import { JourneyActorContext } from '../journey/journey-context';
import { captureTypedContact } from '../journey/typed-contact';
import { useApp } from './app-context';
import { LanguageSwitch } from './language-switch';
import { Logo } from './logo';
import classes from './shell.module.css';
import { LtrText } from '../components/ltr-text';

/**
 * Logo, WhatsApp, toll-free number, the call-back offer (RULINGS 13; not on the call-back pages
 * themselves) and the language switch (spec §1).
 */
export function AppHeader() {
  const { t } = useLingui();
  const { companyInfo } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const offersCallBack = JourneyActorContext.useSelector((snapshot) => snapshot.can({ type: 'callBack.requested', reason: 'header' }));
  const requestCallBack = () => {
    // RULINGS 13: the call-back form starts from what was typed on the page being left.
    captureTypedContact();
    journey.send({ type: 'callBack.requested', reason: 'header' });
  };
  const tollFree = companyInfo.toll_free_number;
  // On the narrowest phones (320 px) the icons are smaller (still over the 24 px minimum target)
  // and sit closer, so three of them and the whole logo still fit.
  const narrow = useMediaQuery('(max-width: 25em)');
  const iconSize = narrow ? 26 : 'lg';
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Anchor href="/traveller-details" underline="never" miw={0} aria-label={t`Safar home: travel insurance`}>
          <Logo label="Safar" />
        </Anchor>
        <Group gap={narrow ? 0 : 'sm'} wrap="nowrap">
          <Group gap="md" visibleFrom="sm" wrap="nowrap">
            <Anchor href={companyInfo.whatsapp_url} target="_blank" rel="noopener" className={classes.contactLink}>
              <IconBrandWhatsapp size={20} aria-hidden="true" />
              <Text span fz="sm" fw={600}>{t`WhatsApp us`}</Text>
            </Anchor>
            <Anchor href={companyInfo.toll_free_number_tel} className={classes.contactLink}>
              <IconPhone size={20} aria-hidden="true" />
              <Text span fz="sm" fw={600}>
                {t`Toll-free`} <LtrText>{companyInfo.toll_free_number}</LtrText>
              </Text>
            </Anchor>
            {offersCallBack && (
              // Its words only from md: between sm and md the icon below stands in, so the row fits.
              <UnstyledButton onClick={requestCallBack} className={classes.contactLink} visibleFrom="md" data-testid="header-call-back">
                <IconPhoneCall size={20} aria-hidden="true" />
                <Text span fz="sm" fw={600}>{t`Call me back`}</Text>
              </UnstyledButton>
            )}
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
          {offersCallBack && (
            <ActionIcon
              onClick={requestCallBack}
              hiddenFrom="md"
              variant="subtle"
              size={iconSize}
              aria-label={t`Call me back`}
              data-testid="header-call-back-icon"
            >
              <IconPhoneCall size={22} aria-hidden="true" />
            </ActionIcon>
          )}
          <LanguageSwitch />
        </Group>
      </Container>
    </header>
  );
}
