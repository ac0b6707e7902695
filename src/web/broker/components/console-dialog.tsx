import { useLingui } from '@lingui/react/macro';
import { Drawer, Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLanguage } from '../i18n/language-provider';

interface DialogProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
}

/**
 * A dialog with a title and a named close button. Its header is a div: Mantine's default
 * <header> inside the dialog would be a second banner landmark (axe landmark-no-duplicate-banner),
 * as the customer's dialogs found (system-error-dialog.tsx).
 */
export function ConsoleModal({ opened, onClose, title, children }: DialogProps) {
  const { t } = useLingui();
  return (
    <Modal.Root opened={opened} onClose={onClose} centered>
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header component="div">
          <Modal.Title fw={700}>{title}</Modal.Title>
          <Modal.CloseButton aria-label={t`Close`} />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

/** A panel from the end of the line (the right in English, the left in Arabic), with a div header as ConsoleModal's. */
export function ConsoleDrawer({ opened, onClose, title, children }: DialogProps) {
  const { t } = useLingui();
  const { lang } = useLanguage();
  return (
    <Drawer.Root opened={opened} onClose={onClose} position={lang === 'ar' ? 'left' : 'right'} size="lg">
      <Drawer.Overlay />
      <Drawer.Content>
        <Drawer.Header component="div">
          <Drawer.Title fw={700}>{title}</Drawer.Title>
          <Drawer.CloseButton aria-label={t`Close`} />
        </Drawer.Header>
        <Drawer.Body>{children}</Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
