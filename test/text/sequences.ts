/**
 * Terminal sequences an attacker would put in model text, command output, file names or MCP
 * descriptions, with what a person sees instead (display mode). Shared by the sanitiser, the
 * rendered-component and the headless tests.
 */
export type SequenceCase = { name: string; input: string; shown: string };

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

export const SEQUENCE_CASES: SequenceCase[] = [
  {
    name: 'OSC 52 clipboard, BEL',
    input: `a${ESC}]52;c;cm0gLXJmIH4=${BEL}b`,
    shown: 'a␛]52;c;cm0gLXJmIH4=␇b',
  },
  {
    name: 'OSC 52 clipboard, ST',
    input: `a${ESC}]52;c;cm0gLXJmIH4=${ST}b`,
    shown: 'a␛]52;c;cm0gLXJmIH4=␛\\b',
  },
  {
    name: 'OSC 52 clipboard, 8-bit OSC and ST',
    input: 'a\u009d52;c;eA==\u009cb',
    shown: 'a⟨U+009D⟩52;c;eA==⟨U+009C⟩b',
  },
  { name: 'OSC 0 window title', input: `${ESC}]0;pwned${BEL}hello`, shown: '␛]0;pwned␇hello' },
  { name: 'OSC 2 window title, ST', input: `${ESC}]2;pwned${ST}hello`, shown: '␛]2;pwned␛\\hello' },
  {
    name: 'OSC 8 link whose text lies about its target',
    input: `${ESC}]8;;https://evil.example/${BEL}https://docs.example/${ESC}]8;;${BEL}`,
    shown: '␛]8;;https://evil.example/␇https://docs.example/␛]8;;␇',
  },
  {
    name: 'OSC 8 with ST terminators',
    input: `${ESC}]8;id=1;http://x.test${ST}click${ESC}]8;;${ST}`,
    shown: '␛]8;id=1;http://x.test␛\\click␛]8;;␛\\',
  },
  { name: 'CSI cursor up hides the line above', input: `ok${ESC}[1A${ESC}[2Kfake`, shown: 'ok␛[1A␛[2Kfake' },
  { name: 'CSI clear screen and home', input: `${ESC}[2J${ESC}[Hclean`, shown: '␛[2J␛[Hclean' },
  { name: 'CSI cursor position', input: `x${ESC}[10;20Hy`, shown: 'x␛[10;20Hy' },
  { name: 'CSI private mode (alternate screen)', input: `${ESC}[?1049hgone`, shown: '␛[?1049hgone' },
  { name: 'CSI scroll region', input: `${ESC}[1;2r`, shown: '␛[1;2r' },
  {
    name: 'SGR colour is dropped in display mode',
    input: `${ESC}[31mred${ESC}[0m plain`,
    shown: 'red plain',
  },
  { name: 'SGR truecolour with colons', input: `${ESC}[38:2::255:0:0mx${ESC}[m`, shown: 'x' },
  {
    name: 'SGR conceal is dropped too (the text shows)',
    input: `${ESC}[8mhidden${ESC}[28m`,
    shown: 'hidden',
  },
  { name: '8-bit C1 CSI', input: 'a\u009b2Jb', shown: 'a⟨U+009B⟩2Jb' },
  { name: '8-bit C1 SGR is dropped like the 7-bit one', input: '\u009b31mred', shown: 'red' },
  { name: 'DCS with ST', input: `${ESC}P1$r0m${ST}after`, shown: '␛P1$r0m␛\\after' },
  {
    name: 'DCS tmux passthrough',
    input: `${ESC}Ptmux;${ESC}${ESC}]52;c;eA==${BEL}${ST}`,
    shown: '␛Ptmux;␛␛]52;c;eA==␇␛\\',
  },
  { name: 'APC', input: `${ESC}_Gf=100;AAAA${ST}`, shown: '␛_Gf=100;AAAA␛\\' },
  { name: 'PM', input: `${ESC}^privacy${ST}`, shown: '␛^privacy␛\\' },
  { name: 'SOS', input: `${ESC}Xstring${ST}`, shown: '␛Xstring␛\\' },
  { name: 'two-byte escape (save cursor, reset)', input: `${ESC}7${ESC}c`, shown: '␛7␛c' },
  { name: 'OSC split: introducer only (first chunk)', input: `text${ESC}]52;c;`, shown: 'text␛]52;c;' },
  { name: 'OSC split: rest only (second chunk)', input: `cm0=${BEL}more`, shown: 'cm0=␇more' },
  { name: 'CSI split: lone ESC at the end', input: `abc${ESC}`, shown: 'abc␛' },
  { name: 'CSI split: lone [ after', input: '[2Jrest', shown: '[2Jrest' },
  {
    name: 'nested OSC inside OSC',
    input: `${ESC}]0;${ESC}]52;c;eA==${BEL}${BEL}`,
    shown: '␛]0;␛]52;c;eA==␇␇',
  },
  { name: 'SGR around an OSC', input: `${ESC}[1m${ESC}]0;t${BEL}${ESC}[0m`, shown: '␛]0;t␇' },
  { name: 'BEL alone', input: `ding${BEL}`, shown: 'ding␇' },
  { name: 'backspace overwriting', input: 'safe\b\b\b\brm -rf', shown: 'safe␈␈␈␈rm -rf' },
  { name: 'lone carriage return overwrites the line', input: 'approve\rreject', shown: 'approve␍reject' },
  { name: 'CRLF is a line break in display mode', input: 'a\r\nb', shown: 'a\nb' },
  { name: 'NUL, vertical tab, form feed', input: 'a\u0000b\u000bc\u000cd', shown: 'a␀b␋c␌d' },
  { name: 'DEL', input: 'a\u007fb', shown: 'a␡b' },
  { name: 'C1 NEL and other C1', input: 'a\u0085b\u0090c', shown: 'a⟨U+0085⟩b⟨U+0090⟩c' },
  {
    name: 'bidi override (Trojan Source)',
    input: 'if (admin) {\u202e } \u2066// check\u2069',
    shown: 'if (admin) {⟨U+202E⟩ } ⟨U+2066⟩// check⟨U+2069⟩',
  },
  {
    name: 'bidi embeddings and pop',
    input: '\u202aa\u202bb\u202cc\u202dd',
    shown: '⟨U+202A⟩a⟨U+202B⟩b⟨U+202C⟩c⟨U+202D⟩d',
  },
  { name: 'bidi isolates FSI/RLI/LRI', input: '\u2068x\u2067y\u2066z', shown: '⟨U+2068⟩x⟨U+2067⟩y⟨U+2066⟩z' },
  {
    name: 'bidi marks LRM, RLM, ALM',
    input: 'a\u200eb\u200fc\u061cd',
    shown: 'a⟨U+200E⟩b⟨U+200F⟩c⟨U+061C⟩d',
  },
  { name: 'zero width space inside a command', input: 'r\u200bm -rf /', shown: 'r⟨U+200B⟩m -rf /' },
  { name: 'BOM and word joiner', input: '\ufeffa\u2060b', shown: '⟨U+FEFF⟩a⟨U+2060⟩b' },
  { name: 'tag characters (ASCII smuggling)', input: 'hi\u{e0041}\u{e0042}', shown: 'hi⟨U+E0041⟩⟨U+E0042⟩' },
  { name: 'line and paragraph separators', input: 'a\u2028b\u2029c', shown: 'a⟨U+2028⟩b⟨U+2029⟩c' },
  { name: 'soft hyphen', input: 'pass\u00adword', shown: 'pass⟨U+00AD⟩word' },
  { name: 'Hangul filler as an invisible name', input: 'x\u3164y', shown: 'x⟨U+3164⟩y' },
];

/** Text that must come back unchanged (same string). */
export const BENIGN_TEXT: string[] = [
  'plain ascii with\ttabs\nand newlines',
  'emoji with ZWJ 👩\u200d💻 and flags 🇫🇷',
  'Persian with ZWNJ می\u200cخواهم',
  'Hebrew שלום and Arabic مرحبا without overrides',
  'CJK 漢字 and combining e\u0301',
  'variation selector ✔\ufe0f',
  'control pictures already visible: ␛ ␇',
  '',
];
