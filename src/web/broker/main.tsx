// Mantine's styles first, then the console's tables and charts, then the theme's field outlines.
import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import 'mantine-datatable/styles.css';
import '../theme/controls.css';
import '@fontsource-variable/inter';
import './console.css';
import { createRoot } from 'react-dom/client';
import { configureConsoleApi } from './services/console-api';
import { ConsoleApp } from './console-app';
import { activateLanguage, storedLanguage } from './i18n/console-language';

/** Start-up: the remembered language's catalogue, then the console. */
async function boot() {
  const lang = storedLanguage();
  await activateLanguage(lang);
  configureConsoleApi({ language: lang });
  createRoot(document.getElementById('root')!).render(<ConsoleApp lang={lang} />);
}

void boot();
