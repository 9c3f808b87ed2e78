/** The console's entry: Mantine's provider (its theme: contrast-safe shades, the system font stack) around the app. */
import '@mantine/core/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './console.css';

const theme = createTheme({
  // Shade 8 of blue on white is above WCAG AA's 4.5:1 for text (the default shade 6 is not).
  primaryColor: 'blue',
  primaryShade: 8,
  autoContrast: true,
  // The system's fonts: nothing fetched from a font host.
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <App />
    </MantineProvider>
  </StrictMode>,
);
