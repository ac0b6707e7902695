import { ActionIcon, Anchor, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconBrandFacebook,
  IconBrandInstagram,
  IconBrandLinkedin,
  IconBrandWhatsapp,
  IconBrandX,
  IconMail,
  IconMapPin,
  IconPhone,
  IconWorld,
} from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useApp } from './app-context';
import { CardLogos } from './card-logos';
import { LogoMark } from './logo';
import { MAIN_SITE_LINK_GROUPS, mainSiteUrl } from './main-site-links';
import classes from './shell.module.css';
import { LtrText } from '../components/ltr-text';

const SOCIAL_NETWORKS: Record<string, { icon: typeof IconBrandFacebook; name: string }> = {
  facebook: { icon: IconBrandFacebook, name: 'Facebook' },
  instagram: { icon: IconBrandInstagram, name: 'Instagram' },
  linkedin: { icon: IconBrandLinkedin, name: 'LinkedIn' },
  x: { icon: IconBrandX, name: 'X' },
};

const COPYRIGHT_YEAR = new Date().getFullYear();

/** Contact information, social links, accepted cards and the main-site links (spec §1). */
export function AppFooter() {
  const { t, i18n } = useLingui();
  const { companyInfo, mainSiteUrl: base } = useApp();
  return (
    <footer className={classes.footer}>
      <Container size="lg" py={40}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing={32}>
          <Stack gap="sm">
            <Group gap={10}>
              <LogoMark size={32} />
              <Text fw={800} fz="lg" c="white">
                {companyInfo.name}
              </Text>
            </Group>
            <Anchor href={companyInfo.toll_free_number_tel} className={classes.footerContact}>
              <IconPhone size={18} aria-hidden="true" />
              <span>
                {t`Toll-free`}: <LtrText>{companyInfo.toll_free_number}</LtrText>
              </span>
            </Anchor>
            <Anchor href={companyInfo.whatsapp_url} target="_blank" rel="noopener" className={classes.footerContact}>
              <IconBrandWhatsapp size={18} aria-hidden="true" />
              <span>
                {t`WhatsApp`}: <LtrText>{companyInfo.whatsapp_number}</LtrText>
              </span>
            </Anchor>
            <Anchor href={`mailto:${companyInfo.email}`} className={classes.footerContact}>
              <IconMail size={18} aria-hidden="true" />
              <span>{companyInfo.email}</span>
            </Anchor>
            <Text className={classes.footerContact} component="address">
              <IconMapPin size={18} aria-hidden="true" />
              <span>{companyInfo.address}</span>
            </Text>
          </Stack>
          {MAIN_SITE_LINK_GROUPS.map((group) => (
            <nav key={group.title.id} aria-label={i18n._(group.title)}>
              <Title order={2} fz="sm" c="white" tt="uppercase" mb="sm" className={classes.footerHeading}>
                {i18n._(group.title)}
              </Title>
              <Stack gap={6} component="ul" className={classes.plainList}>
                {group.links.map((link) => (
                  <li key={link.slug}>
                    <Anchor href={mainSiteUrl(base, link.slug)} className={classes.footerLink}>
                      {i18n._(link.label)}
                    </Anchor>
                  </li>
                ))}
              </Stack>
            </nav>
          ))}
        </SimpleGrid>

        <div className={classes.footerBottom}>
          <Group gap="xs" component="ul" className={classes.plainList} aria-label={t`Follow us`}>
            {companyInfo.social.map((entry) => {
              const network = SOCIAL_NETWORKS[entry.network] ?? { icon: IconWorld, name: entry.network };
              const Icon = network.icon;
              return (
                <li key={entry.network}>
                  <ActionIcon
                    component="a"
                    href={entry.url}
                    target="_blank"
                    rel="noopener"
                    variant="subtle"
                    color="gray.2"
                    size="lg"
                    aria-label={network.name}
                  >
                    <Icon size={20} aria-hidden="true" />
                  </ActionIcon>
                </li>
              );
            })}
          </Group>
          <Stack gap={6} align="flex-start">
            <Text fz="xs" c="gray.4">
              {t`We accept`}
            </Text>
            <CardLogos label={t`Accepted payment cards`} />
          </Stack>
        </div>
        <Text fz="xs" c="gray.4" mt="lg">
          {companyInfo.disclaimer}
        </Text>
        <Text fz="xs" c="gray.4" mt={6}>
          © {COPYRIGHT_YEAR} {companyInfo.name}. {t`Prices exclude VAT.`}
        </Text>
      </Container>
    </footer>
  );
}
