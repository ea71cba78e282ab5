#!/usr/bin/env python3
# The prose budget of CONVENTIONS.md, measured. Each limit is a hard ceiling above the aim, since
# sentences and headers vary about their aim: text written to the aim never fails, and text at
# twice the aim, which the aim was set against, always does.
#
#   sentence       55 words  the aim is about 30; at 55 a sentence holds two, and is split
#   parentheses    depth 1   an aside in an aside; (5.5), f(x), (k + 1) and (0, 1) are no asides
#   table cell     200 chars one line of a page; a longer cell is a paragraph below the table
#   file header    40 lines  the aim is about 25: what the file is, its equations, where the rest lives
#   INI header     10 lines  the aim is about 5: what the preset is; the why goes to the study's page
#
# It reads the files git tracks (git ls-files in --root): the comment sentences of C++ in solvers/,
# pipeline/tools/ and tests/, the sentences and table cells of every Markdown page, the header of
# every C++ file there and of every INI file in configs/. Files named on the command line are read
# instead (a suffix .fixture is dropped to tell their kind: the negative tests' fixtures), with the
# allow-list of --allow alone.
#
# A code span, a link's target and a URL count as one word and hold no parenthesis. A comment line
# indented by two spaces or more past the one after its // is code or an equation, never prose,
# unless it is a list item ("1. ", "- ") or its hanging line. Other text that is not prose (code,
# an equation, a table of numbers) may be allowed in allow.tsv beside this script, one line each:
# path TAB kind (url, code, equation or numbers) TAB a piece of the flagged text. An entry that
# allows nothing is flagged itself, so the list never outlives its text; no file is allowed whole.
#
# Each flag is one line, path:line: what (measured vs limit). Exit status: 0 nothing flagged, 1 a
# flag, 2 bad input (no git checkout, an unreadable file, a malformed allow-list line).
import os
import re
import subprocess
import sys

MAX_WORDS = 55
MAX_DEPTH = 1
MAX_CELL = 200
MAX_HEADER = 40
MAX_INI_HEADER = 10
ALLOW_KINDS = ("url", "code", "equation", "numbers")

CPP_DIRS = ("solvers/", "pipeline/tools/", "tests/")
ABBREVIATIONS = {
    "e.g", "i.e", "eq", "eqs", "fig", "figs", "sect", "sects", "sec", "secs", "ref", "refs", "vs",
    "cf", "al", "no", "nos", "approx", "resp", "tab", "ch", "app", "p", "pp", "vol", "viz", "etc",
}


def bad_input(message):
    print(f"prose_budget: {message}", file=sys.stderr)
    sys.exit(2)


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")
    except OSError as e:
        bad_input(f"cannot read '{path}': {e.strerror}")
    except UnicodeDecodeError:
        bad_input(f"'{path}' is not UTF-8")


def kind_of(path):
    name = path[: -len(".fixture")] if path.endswith(".fixture") else path
    for suffix, kind in ((".md", "md"), (".cpp", "cpp"), (".hpp", "cpp"), (".h", "cpp"), (".ini", "ini")):
        if name.endswith(suffix):
            return kind
    return None


# --- text of prose: code spans, links and URLs become one word each --------------------------------

def plain(text):
    """The text with each code span, link target and URL replaced by one word of the same length, so
    that an offset in it is one in the text."""
    text = re.sub(r"`[^`]*`", lambda m: "C" * len(m.group()), text)
    text = re.sub(r"\]\([^)\s]*\)", lambda m: "]" + " " * (len(m.group()) - 1), text)
    return re.sub(r"<?https?://[^\s>)]+>?", lambda m: "U" * len(m.group()), text)


def words(text):
    return [w for w in text.split() if re.search(r"[A-Za-z0-9]", w)]


LABEL = re.compile(r"\(([A-Z]?\d+(\.\d+)*[a-z]?|[A-Z]\.\d+)\)")
MATH = re.compile(r"^\s*[-+=<>]|\s[-+=<>]=?\s|[\^*/]|^\s*(\S{1,3}|\S*[\d_']\S*)\s*$")


def depth(text):
    """The deepest nesting of prose parentheses. A parenthesis right after a word (f(x)) is code, one
    around a formula ((-1)^i, (k + 1), (x)) is mathematics, one around a label ((5.5)) a reference."""
    text = LABEL.sub(" LABEL ", text)
    pairs, stack = [], []
    for i, c in enumerate(text):
        if c == "(":
            stack.append(i)
        elif c == ")" and stack:
            start = stack.pop()
            code = start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_]'")
            inner = [p for p in pairs if start < p[0]]
            inside = text[start + 1 : i]
            for s, e, _ in sorted(p for p in inner if not any(q[0] < p[0] and p[1] < q[1] for q in inner))[::-1]:
                inside = inside[: s - start - 1] + "X" + inside[e - start :]
            items = [item.strip() for item in inside.split(",")]
            tuple_ = len(items) > 1 and all(re.fullmatch(r"\S{1,3}|\S*[\d_']\S*", item) for item in items)
            pairs.append((start, i, not code and not tuple_ and not MATH.search(inside)))
    deepest = 0
    for start, end, prose in pairs:
        if prose:
            deepest = max(deepest, sum(1 for s, e, p in pairs if p and s <= start and end <= e))
    return deepest


def sentences(text):
    """Splits a paragraph (plain text, one line) into (offset, sentence)."""
    out, start = [], 0
    for m in re.finditer(r"[.!?][\"')\]*]*(\s+|$)", text):
        before = re.search(r"([A-Za-z.]+)[.!?]?$", text[start : m.start() + 1])
        token = before.group(1).rstrip(".").lower() if before else ""
        if m.end() < len(text) and token in ABBREVIATIONS:
            continue
        out.append((start, text[start : m.end()].strip()))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:].strip()))
    return out


class Checker:
    def __init__(self, allow):
        self.allow = allow  # [[path, kind, piece, used, line]]
        self.flags = []

    def allowed(self, path, text):
        for entry in self.allow:
            if entry[0] == path and entry[2] in text:
                entry[3] = True
                return True
        return False

    def flag(self, path, line, what):
        self.flags.append(f"{path}:{line}: {what}")

    def paragraph(self, path, pieces):
        """pieces: [(line, text)] of one paragraph; checks each sentence."""
        if not pieces:
            return
        raw, starts = "", []
        for line, piece in pieces:
            starts.append((len(raw), line))
            raw += piece + " "
        text = plain(raw)
        for offset, sentence in sentences(text):
            line = [ln for o, ln in starts if o <= offset][-1]
            n = len(words(sentence))
            d = depth(sentence)
            if n <= MAX_WORDS and d <= MAX_DEPTH:
                continue
            original = raw[offset : offset + len(sentence)]
            if self.allowed(path, original):
                continue
            head = " ".join(original.split()[:6])
            if n > MAX_WORDS:
                self.flag(path, line, f'sentence of {n} words, "{head} ..." ({n} vs {MAX_WORDS})')
            if d > MAX_DEPTH:
                self.flag(path, line, f'parentheses nested {d} deep, "{head} ..." ({d} vs {MAX_DEPTH})')

    # --- Markdown ---------------------------------------------------------------------------------

    def markdown(self, path, lines):
        para, fenced = [], False
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                self.paragraph(path, para)
                para, fenced = [], not fenced
                continue
            if fenced:
                continue
            if not stripped or stripped.startswith("#"):
                self.paragraph(path, para)
                para = [(number, stripped.lstrip("#"))] if stripped else []
                if stripped:
                    self.paragraph(path, para)
                    para = []
                continue
            if stripped.startswith("|"):
                self.paragraph(path, para)
                para = []
                self.table_row(path, number, stripped)
                continue
            if re.match(r"([-*+]|\d+\.)\s", stripped):
                self.paragraph(path, para)
                para = [(number, re.sub(r"^([-*+]|\d+\.)\s+", "", stripped))]
                continue
            para.append((number, stripped))
        self.paragraph(path, para)

    def table_row(self, path, number, row):
        cells, cell, code = [], "", False
        for c in row.strip().strip("|"):
            if c == "`":
                code = not code
            if c == "|" and not code:
                cells.append(cell)
                cell = ""
            else:
                cell += c
        cells.append(cell)
        for cell in cells:
            cell = cell.strip()
            if re.fullmatch(r":?-+:?", cell):
                continue
            if len(cell) > MAX_CELL and not self.allowed(path, cell):
                head = " ".join(cell.split()[:6])
                self.flag(path, number, f'table cell of {len(cell)} characters, "{head} ..." ({len(cell)} vs {MAX_CELL})')
            self.paragraph(path, [(number, cell)])

    # --- C++ --------------------------------------------------------------------------------------

    def cpp(self, path, lines):
        comments = cpp_comments(lines)  # [(line, column, text, trailing)]
        para, last_line, last_column, hang = [], None, None, 0
        for line, column, text, trailing in comments:
            item = re.match(r"(\s*)([-*]|\d+[.)])\s+", text)
            indent = len(text) - len(text.lstrip())
            verbatim = not text.strip() or (indent >= 2 and not item and not (hang and indent == hang))
            joins = (last_line == line - 1 and not trailing and not verbatim and not item
                     and (last_column is None or last_column == column))
            if not joins:
                self.paragraph(path, para)
                para, last_column = [], (column if trailing else None)
                hang = len(item.group()) if item else (hang if indent and indent == hang else 0)
            if verbatim:
                last_line, hang = None, 0
                continue
            para.append((line, text[len(item.group()) :] if item else text.strip()))
            last_line = line
        self.paragraph(path, para)
        self.header(path, lines, MAX_HEADER, ("//", "/*", "*"), "file header")

    def header(self, path, lines, limit, markers, what):
        count = 0
        for line in lines:
            if line.strip().startswith(markers):
                count += 1
            else:
                break
        if count > limit:
            self.flag(path, 1, f"{what} of {count} lines ({count} vs {limit})")

    def ini(self, path, lines):
        self.header(path, lines, MAX_INI_HEADER, ("#", ";"), "INI header")


def cpp_comments(lines):
    """Every comment of a C++ file as (line, column, text, trailing): one entry per line."""
    out, block = [], False
    for number, line in enumerate(lines, 1):
        i, n, code_before = 0, len(line), False
        while i < n:
            if block:
                end = line.find("*/", i)
                text = line[i:] if end < 0 else line[i:end]
                text = re.sub(r"^\s*\*(?!/)", "", text)
                out.append((number, i, text, False))
                if end < 0:
                    i = n
                else:
                    block, i = False, end + 2
                continue
            c = line[i]
            if c in "\"'":
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                i, code_before = j + 1, True
            elif line.startswith("//", i):
                text = line[i + 2 :].lstrip("/!<")
                text = text[1:] if text.startswith(" ") else text
                out.append((number, i, text, code_before))
                i = n
            elif line.startswith("/*", i):
                block, i = True, i + 2
                while i < n and line[i] in "*!":
                    i += 1
            else:
                if not c.isspace():
                    code_before = True
                i += 1
    return out


def load_allow(path):
    entries = []
    if not os.path.exists(path):
        return entries
    for number, line in enumerate(read(path), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in ALLOW_KINDS or not parts[2].strip():
            bad_input(f"{path}:{number}: not 'path TAB kind TAB text' with kind one of {', '.join(ALLOW_KINDS)}")
        entries.append([parts[0], parts[1], parts[2], False, number])
    return entries


def tracked(root):
    try:
        listing = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        bad_input(f"no file list: git ls-files in '{root}' failed ({e})")
    files = []
    for path in listing.decode().split("\0"):
        kind = kind_of(path)
        if path.endswith(".fixture") or kind is None:
            continue
        if kind == "cpp" and not path.startswith(CPP_DIRS):
            continue
        if kind == "ini" and not path.startswith("configs/"):
            continue
        files.append(path)
    return files


def main(argv):
    root, files, allow = ".", [], None
    for arg in argv:
        if arg.startswith("--root="):
            root = arg[len("--root="):]
        elif arg.startswith("--allow="):
            allow = arg[len("--allow="):]
        elif arg.startswith("-"):
            bad_input(f"unknown option '{arg}' (usage: prose_budget.py [--root=DIR] [--allow=TSV] [FILE...])")
        else:
            files.append(arg)
    if allow is None and not files:
        allow = os.path.join(os.path.dirname(os.path.abspath(__file__)), "allow.tsv")
    checker = Checker(load_allow(allow) if allow else [])
    for path in files or tracked(root):
        kind = kind_of(path)
        if kind is None:
            bad_input(f"'{path}': not Markdown, C++ or INI")
        if not files and not os.path.exists(os.path.join(root, path)):
            continue  # tracked, but deleted in the work tree: nothing to read
        lines = read(path if files else os.path.join(root, path))
        getattr(checker, {"md": "markdown", "cpp": "cpp", "ini": "ini"}[kind])(path, lines)
    for path, kind, piece, used, line in checker.allow:
        if not used:
            checker.flag(os.path.relpath(allow, root), line, f'allows nothing: {path} "{piece}" (0 vs 1)')
    for f in checker.flags:
        print(f)
    if checker.flags:
        print(f"prose_budget: {len(checker.flags)} flags", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
