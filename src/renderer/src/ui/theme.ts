import { definePreset } from '@primeuix/themes';
import { Aura } from './auraParts';

const teal = Object.fromEntries(
  [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950].map((shade) => [shade, `{teal.${shade}}`]),
);

/** A message's colours: the text dark enough on its tinted background (4.5:1 or more). */
const messageColours = (colour: string) => ({
  color: `{${colour}.800}`,
  outlined: { color: `{${colour}.800}`, borderColor: `{${colour}.700}` },
  simple: { color: `{${colour}.800}` },
});

/** Text and outlined buttons of one severity: the label at 4.5:1 or more on white. */
const tinted = (colour: string) => ({ color: `{${colour}.700}` });

/**
 * The app's theme: Aura with a calm teal to match the logo, tuned for WCAG 2.2 AA. Aura draws the primary colour
 * with its 500 shade (white on teal-500 is 2.5:1; teal-500 text on white 2.3:1): the app uses the 700 shade
 * (5.5:1), darker on hover. Muted text is one shade darker than Aura's (4.5:1 on the grey page too), form-field
 * borders reach 3:1, focus rings are 2 px, and the severities' buttons, messages and toggles carry text at 4.5:1.
 */
/** The theme's options: light only (no dark colour scheme is drawn). */
export const themeOptions = { darkModeSelector: false };

export const InnkeeperTheme = definePreset(Aura, {
  semantic: {
    primary: teal,
    focusRing: { width: '2px', style: 'solid', color: '{primary.color}', offset: '2px', shadow: 'none' },
    colorScheme: {
      light: {
        primary: {
          color: '{primary.700}',
          contrastColor: '#ffffff',
          hoverColor: '{primary.800}',
          activeColor: '{primary.900}',
        },
        highlight: {
          background: '{primary.50}',
          focusBackground: '{primary.100}',
          color: '{primary.800}',
          focusColor: '{primary.900}',
        },
        text: {
          color: '{surface.700}',
          hoverColor: '{surface.800}',
          mutedColor: '{surface.600}',
          hoverMutedColor: '{surface.700}',
        },
        formField: {
          borderColor: '{surface.500}',
          hoverBorderColor: '{surface.600}',
          placeholderColor: '{surface.500}',
        },
      },
    },
  },
  components: {
    button: {
      colorScheme: {
        light: {
          root: {
            danger: {
              background: '{red.600}',
              hoverBackground: '{red.700}',
              activeBackground: '{red.800}',
              borderColor: '{red.600}',
              hoverBorderColor: '{red.700}',
              activeBorderColor: '{red.800}',
              focusRing: { color: '{red.600}', shadow: 'none' },
            },
            warn: {
              background: '{orange.700}',
              hoverBackground: '{orange.800}',
              activeBackground: '{orange.900}',
              borderColor: '{orange.700}',
              hoverBorderColor: '{orange.800}',
              activeBorderColor: '{orange.900}',
              focusRing: { color: '{orange.700}', shadow: 'none' },
            },
            success: {
              background: '{green.700}',
              hoverBackground: '{green.800}',
              activeBackground: '{green.900}',
              borderColor: '{green.700}',
              hoverBorderColor: '{green.800}',
              activeBorderColor: '{green.900}',
              focusRing: { color: '{green.700}', shadow: 'none' },
            },
            info: {
              background: '{sky.700}',
              hoverBackground: '{sky.800}',
              activeBackground: '{sky.900}',
              borderColor: '{sky.700}',
              hoverBorderColor: '{sky.800}',
              activeBorderColor: '{sky.900}',
              focusRing: { color: '{sky.700}', shadow: 'none' },
            },
          },
          outlined: {
            secondary: { color: '{surface.600}', borderColor: '{surface.300}' },
            success: tinted('green'),
            info: tinted('sky'),
            warn: tinted('orange'),
            danger: tinted('red'),
          },
          text: {
            secondary: { color: '{surface.600}' },
            success: tinted('green'),
            info: tinted('sky'),
            warn: tinted('orange'),
            danger: tinted('red'),
          },
        },
      },
    },
    togglebutton: {
      colorScheme: {
        light: {
          root: { color: '{surface.600}', hoverColor: '{surface.800}' },
          icon: { color: '{surface.600}', hoverColor: '{surface.800}' },
        },
      },
    },
    message: {
      colorScheme: {
        light: {
          info: messageColours('blue'),
          success: messageColours('green'),
          warn: messageColours('yellow'),
          error: messageColours('red'),
          secondary: { outlined: { color: '{surface.600}' }, simple: { color: '{surface.600}' } },
        },
      },
    },
  },
});
