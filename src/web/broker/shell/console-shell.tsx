import { Trans, useLingui } from '@lingui/react/macro';
import { AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { useRequiredSession } from '../services/console-session';
import { LoadError, PageLoader } from '../components/data-view';
import { NoAccessPanel } from '../components/no-access-panel';
import { PageTitle } from '../components/page-title';
import { AccountMenu } from './account-menu';
import { LanguageSwitch } from './language-switch';
import { isCurrent, NAV_ITEMS } from './nav-items';

/**
 * The console's frame: a header (menu button under 48em, name, language, account) and the menu
 * of the screens the role may open. Only a signed-in account whose second factor is set up gets
 * here: nobody signed in goes to sign in, an account without the factor to set it up first. A
 * screen the role may not open (a staff member at /broker/refunds) shows the no-access panel.
 */
export function ConsoleShell() {
  const { t, i18n } = useLingui();
  const { session, refresh } = useRequiredSession();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);

  if (session.status === 'unknown' || session.status === 'loading') return <PageLoader />;
  if (session.status === 'failed') return <LoadError error={session.error} onRetry={() => void refresh()} />;
  if (session.status === 'signed-out') return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  const { me } = session;
  if (!me.two_factor_enabled) return <Navigate to="/two-factor" replace />;
  // A screen of another role answers "no access" at once; its data would be the server's 403.
  const barred = NAV_ITEMS.some((item) => isCurrent(item, location.pathname) && !item.roles.includes(me.role));

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding={{ base: 'sm', sm: 'md' }}>
      <a className="console-skip-link" href="#console-main">
        <Trans>Skip to content</Trans>
      </a>
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? t`Close the menu` : t`Open the menu`} aria-expanded={opened} aria-controls="console-nav" />
            <Text component={Link} to="/" fw={700} c="safar.8" td="none" size="lg" style={{ whiteSpace: 'nowrap' }}>
              <Trans>Safar console</Trans>
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <AccountMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" id="console-nav" aria-label={t`Console menu`} className="console-nav" mod={{ closed: !opened }}>
        {NAV_ITEMS.filter((item) => item.roles.includes(me.role)).map((item) => {
          const current = isCurrent(item, location.pathname);
          return (
            <NavLink
              key={item.path}
              component={Link}
              to={item.path}
              label={i18n._(item.label)}
              active={current}
              aria-current={current ? 'page' : undefined}
              onClick={close}
              data-testid={`nav-${item.path === '/' ? 'today' : item.path.slice(1)}`}
            />
          );
        })}
      </AppShell.Navbar>
      <AppShell.Main id="console-main" tabIndex={-1}>
        {barred ? <BarredScreen /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}

/** A screen of another role: its heading (the page keeps one h1) and the no-access panel. */
function BarredScreen() {
  const { t } = useLingui();
  return (
    <>
      <PageTitle>{t`No access`}</PageTitle>
      <NoAccessPanel />
    </>
  );
}
