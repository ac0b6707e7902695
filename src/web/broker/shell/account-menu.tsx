import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Menu, Text } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { postJson } from '../services/console-api';
import { useMe, useSession } from '../services/console-session';
import { labelOf, ROLE_LABELS } from '../i18n/console-labels';

/**
 * The signed-in account (e-mail and role) and the ways out: sign out here, or everywhere (every
 * session of the account, better-auth's revoke-sessions). Either way the sign-in screen follows,
 * even when the server could not be reached: the cookie is the server's to end.
 */
export function AccountMenu() {
  const { t, i18n } = useLingui();
  const me = useMe();
  const { signedOut } = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const role = labelOf(i18n, ROLE_LABELS, me.role);
  const email = me.email;

  const leave = async (everywhere: boolean) => {
    if (busy) return;
    setBusy(true);
    try {
      if (everywhere) await postJson('/auth/revoke-sessions', {});
      await postJson('/auth/sign-out', {});
    } catch {
      // Signed out already, or the server is away: the sign-in screen follows either way.
    } finally {
      setBusy(false);
      signedOut();
      void navigate('/login', { replace: true });
    }
  };

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-md"
          loading={busy}
          aria-label={t`Account: ${email} (${role})`}
          leftSection={<IconUserCircle size={20} aria-hidden="true" />}
          data-testid="account-menu"
          maw={340}
          px={6}
        >
          <Text span size="sm" truncate="end" className="console-ltr" visibleFrom="sm">
            {email}
          </Text>
          <Text span size="xs" c="dimmed" visibleFrom="sm" ms={6} style={{ flexShrink: 0 }}>
            {role}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <span className="console-ltr">{me.email}</span>
          <br />
          <Trans>Role: {role}</Trans>
        </Menu.Label>
        <Menu.Item onClick={() => void leave(false)} data-testid="sign-out">
          <Trans>Sign out</Trans>
        </Menu.Item>
        <Menu.Item onClick={() => void leave(true)} data-testid="sign-out-everywhere">
          <Trans>Sign out everywhere</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
