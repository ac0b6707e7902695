import { Button, Group, Modal, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconRefresh } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/** "Something went wrong" with a refresh button (spec §8); 40 % wide, 90 % on phones. */
export function SystemErrorDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 767px)');
  return (
    <Modal opened={opened} onClose={onClose} title={t`Something went wrong`} size={mobile ? '90%' : '40%'} centered>
      <Text mb="lg">{t`An error occurred while fetching data. Please click refresh to try again.`}</Text>
      <Group justify="flex-end">
        <Button leftSection={<IconRefresh size={18} aria-hidden="true" />} onClick={() => window.location.reload()}>
          {t`Refresh`}
        </Button>
      </Group>
    </Modal>
  );
}
