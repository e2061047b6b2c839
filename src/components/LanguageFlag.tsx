/**
 * The flag beside a story language's name, drawn as a small SVG picture shipped with the app
 * rather than a flag emoji: Chromium on Linux without an emoji font draws those as two empty
 * boxes, and Windows never draws them (it shows the two letters).
 *
 * The pictures are country-flag-icons' SVG strings (MIT), one module per flag: the package marks
 * its modules free of side effects, so webpack bundles only the 20 flags named here. This module
 * is not re-exported by the components barrel, which the entry chunk (/login) imports: the flags
 * ship only in the lazy chunks of the features that show a language, never in /login.
 */
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { BR, CN, CZ, DE, DK, ES, FI, FR, IN, IT, JP, KR, NL, NO, PL, RU, SA, SE, TR, US } from 'country-flag-icons/string/3x2';
import { isLanguageCode, languageName, type LanguageCode } from '../lib/languages';
// Through the barrel, as the features import it: where webpack cannot drop a barrel's unused
// re-exports, a direct import would make useLocale a module of its own in the entry chunk.
import { useInterfaceLanguage } from '.';

/** The country whose flag stands for each language (Portuguese is Brazil's, English the US'). */
const FLAGS: Record<LanguageCode, string> = {
  pt: BR,
  en: US,
  es: ES,
  fr: FR,
  de: DE,
  it: IT,
  ja: JP,
  ko: KR,
  zh: CN,
  ru: RU,
  ar: SA,
  hi: IN,
  tr: TR,
  nl: NL,
  sv: SE,
  no: NO,
  da: DK,
  fi: FI,
  pl: PL,
  cs: CZ,
};

/** The flag's picture as a URL an <img> can show (an SVG document of its own). */
function flagUrl(code: LanguageCode): string {
  return `data:image/svg+xml,${encodeURIComponent(FLAGS[code])}`;
}

const FLAG_SX: SxProps<Theme> = {
  display: 'inline-block',
  flexShrink: 0,
  // 3:2, about as tall as a capital letter, sitting on the text's line like an icon.
  width: '1.35em',
  height: '0.9em',
  verticalAlign: '-0.125em',
  objectFit: 'cover',
  borderRadius: '2px',
  // A hairline edge, so that white flags (Japan, Finland) stay visible on a light surface.
  boxShadow: (theme) => `0 0 0 1px ${theme.palette.divider}`,
};

export interface LanguageFlagProps {
  /** A story language's code ("pt", "en", ...); an unknown code draws nothing. */
  code: string;
  sx?: SxProps<Theme>;
}

/**
 * A story language's flag: a decorative picture (alt="", so assistive technology skips it),
 * always shown beside the language's name, which says which language it is.
 */
export function LanguageFlag({ code, sx }: LanguageFlagProps) {
  if (!isLanguageCode(code)) return null;
  return <Box component="img" src={flagUrl(code)} alt="" draggable={false} sx={[FLAG_SX, ...(Array.isArray(sx) ? sx : [sx])]} />;
}

/** A story language as the console shows it: its flag, then its name in the interface language. */
export function LanguageLabel({ code }: { code: string }) {
  const uiLanguage = useInterfaceLanguage();
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <LanguageFlag code={code} sx={{ mr: '0.45em' }} />
      {languageName(code, uiLanguage)}
    </Box>
  );
}
