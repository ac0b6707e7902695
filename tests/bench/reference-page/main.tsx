/**
 * The bench's reference page (issue 38 item 5): a bare React + Mantine form about the size of the
 * travel details step, with none of Safar's code. Lighthouse measures it in the same run as the
 * app's pages, so each page's blocking time can be read as a ratio to what React and Mantine cost
 * on this host, whatever the host's speed.
 */
import '@mantine/core/styles.css';
import { Button, Checkbox, Container, MantineProvider, NumberInput, Select, Stack, TextInput, Title } from '@mantine/core';
import { createRoot } from 'react-dom/client';

const countries = ['France', 'Germany', 'Italy', 'Spain', 'Turkey', 'United Arab Emirates', 'United Kingdom', 'United States'];

function ReferenceForm() {
  return (
    <Container size="xs" py="lg" component="main">
      <Title order={1}>Travel details</Title>
      <Stack mt="md">
        <Select label="Destination" data={countries} searchable />
        <TextInput label="Departure date" placeholder="dd/mm/yyyy" />
        <TextInput label="Return date" placeholder="dd/mm/yyyy" />
        <NumberInput label="Travellers" min={1} max={9} defaultValue={1} />
        <TextInput label="E-mail" type="email" />
        <TextInput label="Mobile number" type="tel" />
        <Checkbox label="I agree to the terms" />
        <Button>Get quotes</Button>
      </Stack>
    </Container>
  );
}

createRoot(document.getElementById('root')!).render(
  <MantineProvider>
    <ReferenceForm />
  </MantineProvider>,
);
