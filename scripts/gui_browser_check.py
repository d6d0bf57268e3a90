#!/usr/bin/env python3
"""The board page (`engine gui`) in a real headless Chromium, driven by Selenium.

Usage: scripts/gui_browser_check.py ENGINE_PATH [--screenshots DIR]

Loads thesis positions from the bundled list, drags legal moves, an illegal
move and a promotion, finishes and checks the found / missed / wrong lists
and the reasons, saves the case and checks the line written, switches on the
pin overlay and checks its hexadecimal value against python-chess, and fails
on any browser console error. Then the crowd mode: the organiser loads two
thesis positions through the page, two separate browser sessions join as two
experts (one with a name that is HTML), each enters every legal move of each
position until both are confirmed, and the leaderboard and the export are
checked. Expected move lists come from tests/data/thesis_positions.epd, not
from the server under test.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parent.parent
THESIS = ROOT / "tests" / "data" / "thesis_positions.epd"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000"]


def thesis_positions():
    """(fen, legal moves) per line of the thesis file."""
    out = []
    for line in THESIS.read_text().splitlines():
        if not line.strip():
            continue
        fen, *ops = [p.strip() for p in line.split(";")]
        moves = next(op for op in ops if op.startswith("moves")).split()[1:]
        out.append((fen, moves))
    return out


def start_server(engine, cases, db, token_file):
    proc = subprocess.Popen([engine, "gui", "--port", "0", "--cases", str(cases), "--db", str(db),
                             "--organiser-token-file", str(token_file)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.match(r"listening on (http://127\.0\.0\.1:\d+/)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"no 'listening on' line: {line!r} {proc.stderr.read()}")
    return proc, match.group(1)


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class Page:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url
        self.wait = WebDriverWait(driver, 10)

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def square(self, name):
        return self.el(f'.sq[data-sq="{name}"]')

    def fen_shown(self):
        return self.el("#fen").get_attribute("value")

    def load_thesis(self, index, fen):
        Select(self.el("#suite")).select_by_index(1)  # after the prompt: the thesis list
        self.wait.until(lambda d: len(Select(self.el("#suite-pos")).options) > index)
        Select(self.el("#suite-pos")).select_by_index(index)
        self.wait.until(lambda d: self.fen_shown() == fen)

    def drag(self, src, dst):
        ActionChains(self.d).click_and_hold(self.square(src)).move_to_element(
            self.square(dst)).release().perform()

    def claims(self, list_id="claims"):
        return [li.get_attribute("data-move") for li in self.d.find_elements(By.CSS_SELECTOR, f"#{list_id} li")]

    def listed(self, list_id):
        return [li.get_attribute("data-move") for li in self.d.find_elements(By.CSS_SELECTOR, f"#{list_id} li")]

    def finish(self):
        self.el("#finish").click()
        self.wait.until(lambda d: self.el("#results").is_displayed())


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f"ok: {what}")


def collect_with_promotion(page, cases, fen, legal):
    """Thesis position 7: two king moves, a king step into check, a promotion."""
    page.load_thesis(6, fen)
    page.drag("d7", "c6")
    page.drag("d7", "d6")
    page.drag("d7", "e8")  # e8 touches the black king on f7
    page.drag("e7", "e8")
    page.wait.until(lambda d: page.el("#promo").is_displayed())
    page.el('#promo-choices button[data-piece="q"]').click()
    check(page.claims() == ["d7c6", "d7d6", "d7e8", "e7e8q"], f"claims listed in order: {page.claims()}")
    check(page.el(".sq[data-sq='e7'] .piece") is not None, "the pawn went back to e7")
    page.finish()
    found = ["d7c6", "d7d6", "e7e8q"]
    missed = sorted(set(legal) - set(found))
    check(sorted(page.listed("found")) == found, "found list")
    check(page.listed("missed") == missed, f"missed list {missed}")
    check(page.listed("wrong") == ["d7e8"], "wrong list")
    reason = page.el("#wrong li .reason").text
    check(reason == "the king would be in check on e8 from the king on f7", f"reason: {reason}")
    page.el("#save").click()
    page.wait.until(lambda d: "Saved" in page.el("#save-status").text)
    lines = cases.read_text().splitlines()
    expected = f"{fen} ;claimed d7c6 d7d6 d7e8 e7e8q ;missed {' '.join(missed)} ;wrong d7e8"
    check(lines == [expected], f"saved line: {lines}")


def collect_pinned(page, fen, legal, shots):
    """Thesis position 12: the knight on d4 is pinned by the rook on d7."""
    page.load_thesis(11, fen)
    page.el("#clear").click()
    page.drag("a1", "a7")
    page.drag("b3", "f7")
    page.drag("d4", "c6")  # pinned
    # Click-click input too: the king to e2 (legal).
    page.square("d1").click()
    page.square("d2").click()
    page.el("#undo").click()
    check(page.claims() == ["a1a7", "b3f7", "d4c6"], f"undo removed the last claim: {page.claims()}")
    page.finish()
    check(sorted(page.listed("found")) == ["a1a7", "b3f7"], "found list (pinned case)")
    check(len(page.listed("missed")) == len(legal) - 2, "missed list (pinned case)")
    reason = page.el("#wrong li .reason").text
    check(reason == "the knight on d4 is pinned to its king along the line d1-d7 by the rook on d7",
          f"pin reason: {reason}")
    ActionChains(page.d).move_to_element(page.el("#wrong li")).perform()
    marked = sorted(e.get_attribute("data-sq") for e in page.d.find_elements(By.CSS_SELECTOR, ".sq.hl"))
    check(marked == ["c6", "d4"], f"pointing at the wrong move marks its squares: {marked}")
    if shots:
        page.d.save_screenshot(str(shots / "collect-finished.png"))


def explore_pins(page, fen, shots):
    board = chess.Board(fen)
    expected = sum(1 << sq for sq in chess.SQUARES
                   if board.color_at(sq) == board.turn and board.is_pinned(board.turn, sq))
    page.el("#mode-explore").click()
    page.el('input[name="overlay"][value="pins"]').click()
    shown = page.el('#bb-values code[data-name="pinned"]').text
    check(shown == f"0x{expected:016x}", f"pinned hex {shown} (python-chess: 0x{expected:016x})")
    lit = sorted(e.get_attribute("data-sq") for e in page.d.find_elements(By.CSS_SELECTOR, ".sq.frame"))
    check(lit == [chess.square_name(s) for s in chess.SQUARES if expected >> s & 1], f"pinned squares framed: {lit}")
    if shots:
        page.d.save_screenshot(str(shots / "explore-pins.png"))
    page.el("#divide").click()
    page.wait.until(lambda d: "Nodes searched" in page.el("#divide-out").text)
    check(f"Nodes searched: {board.legal_moves.count()}" in page.el("#divide-out").text, "divide depth 1")


def load_typed(page, fen):
    page.el("#fen").clear()
    page.el("#fen").send_keys(fen + "\n")
    # The box holds the typed text at once; wait for the server's position
    # to be drawn, or a drag could hold squares about to be replaced.
    page.wait.until(lambda d: d.execute_script("return state.pos && state.pos.fen") == fen)


def chess960_and_en_passant(page, ep_fen, ep_legal):
    """Castling onto the rook in Chess960, and an en-passant capture."""
    page.el("#mode-collect").click()
    load_typed(page, "6kr/8/8/8/8/8/8/RK5R w Hh - 0 1")
    page.drag("b1", "h1")
    page.drag("b1", "a1")
    page.finish()
    check(page.listed("found") == ["b1h1"], "Chess960 castling by moving the king onto its rook")
    reason = page.el("#wrong li .reason").text
    check(reason == "no castling right is left on the queen side (O-O-O)", f"castling reason: {reason}")
    load_typed(page, ep_fen)
    page.drag("e5", "d6")
    page.finish()
    check(page.listed("found") == ["e5d6"] and "e5d6" in ep_legal, "en passant e5d6 found")


def bad_fen(page):
    before = page.fen_shown()
    page.el("#fen").clear()
    page.el("#fen").send_keys("8/8/8 w - -\n")
    page.wait.until(lambda d: page.el("#error").text)
    check("expected 8 ranks, found 3" in page.el("#error").text, f"bad FEN message: {page.el('#error').text}")
    check(page.el(".sq[data-sq='a1']") is not None and before, "board still shown")


HOSTILE = "<img src=x onerror=window.pwned=1>"


def enter_moves(page, moves):
    """Every move by dragging; promotions through the dialog."""
    for move in moves:
        page.drag(move[:2], move[2:4])
        if len(move) == 5:
            page.wait.until(lambda d: page.el("#promo").is_displayed())
            page.el(f'#promo-choices button[data-piece="{move[4]}"]').click()
    page.wait.until(lambda d: sorted(page.claims("crowd-claims")) == sorted(moves))


def crowd_task(page, by_fen):
    """Does the task shown: every legal move, then submit; returns the result line."""
    page.wait.until(lambda d: page.el("#crowd-task").text.startswith("Position"))
    fen = page.fen_shown()
    check(fen in by_fen, f"the task is a loaded position: {fen}")
    enter_moves(page, by_fen[fen])
    page.el("#crowd-submit").click()
    page.wait.until(lambda d: "The position is now" in page.el("#crowd-result").text)
    return page.el("#crowd-result").text


def crowd_join(page, name):
    page.d.get(page.url + "?mode=crowd")
    page.wait.until(lambda d: page.el("#crowd-panel").is_displayed())
    page.el("#crowd-name").send_keys(name)
    page.el("#crowd-join-button").click()
    page.wait.until(lambda d: page.el("#crowd-task").text.startswith("Position"))
    check(page.el("#crowd-me").text == name, f"joined as {page.el('#crowd-me').text!r}")


def crowd(page_a, make_page_b, token, picked, shots):
    """Two experts in two browser sessions until both positions are confirmed."""
    by_fen = dict(picked)
    page_a.d.get(page_a.url + "?mode=crowd")
    page_a.wait.until(lambda d: page_a.el("#crowd-panel").is_displayed())
    page_a.el("#crowd-organiser summary").click()
    page_a.el("#org-token").send_keys(token)
    page_a.el("#org-epd").send_keys("\n".join(fen + " ;from the thesis" for fen, _ in picked))
    page_a.el("#org-load-epd").click()
    page_a.wait.until(lambda d: page_a.el("#org-status").text)
    check(page_a.el("#org-status").text.startswith("Added 2 of 2"), f"organiser: {page_a.el('#org-status').text}")
    crowd_join(page_a, HOSTILE)
    check(page_a.d.execute_script("return window.pwned === undefined"), "an HTML name is not run")
    check(not page_a.d.find_elements(By.CSS_SELECTOR, "#crowd-panel img"), "an HTML name makes no element")
    page_b = make_page_b()
    crowd_join(page_b, "Bea")
    first_a = crowd_task(page_a, by_fen)
    first_b = crowd_task(page_b, by_fen)
    check(first_a.endswith("now open.") and first_b.endswith("now open."), f"one expert agrees with no one: {first_a} / {first_b}")
    if shots:
        page_b.d.save_screenshot(str(shots / "crowd-submitted.png"))
    page_a.el("#crowd-next").click()
    page_b.el("#crowd-next").click()
    second_a = crowd_task(page_a, by_fen)
    second_b = crowd_task(page_b, by_fen)
    check(second_a.endswith("now confirmed.") and second_b.endswith("now confirmed."),
          f"the second expert's identical set confirms: {second_a} / {second_b}")
    page_b.el("#crowd-next").click()
    page_b.wait.until(lambda d: "No position left" in page_b.el("#crowd-task").text)
    page_a.el("#crowd-refresh").click()
    page_a.wait.until(lambda d: "2 confirmed" in page_a.el("#crowd-counts").text)
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in page_a.d.find_elements(By.CSS_SELECTOR, "#crowd-board tbody tr")]
    points = sum(len(m) for m in by_fen.values())
    check(sorted((r[1], r[2], r[3]) for r in rows) == sorted([(HOSTILE, str(points), "2"), ("Bea", str(points), "2")]),
          f"leaderboard: {rows}")
    page_a.el("#crowd-organiser summary").click() if not page_a.el("#org-token").is_displayed() else None
    page_a.el("#org-token").clear()
    page_a.el("#org-token").send_keys(token)
    page_a.el("#org-tasks-button").click()
    page_a.wait.until(lambda d: page_a.el("#org-tasks").is_displayed())
    statuses = [tr.find_elements(By.TAG_NAME, "td")[1].text for tr in page_a.d.find_elements(By.CSS_SELECTOR, "#org-tasks tbody tr")]
    check(statuses == ["confirmed", "confirmed"], f"organiser sees {statuses}")
    page_a.el("#org-export").click()
    page_a.wait.until(lambda d: page_a.el("#org-export-out").is_displayed())
    lines = page_a.el("#org-export-out").text.splitlines()
    expected = [f"{fen} ;moves {' '.join(sorted(m))} ;D1 {len(m)} ;experts 2" for fen, m in picked]
    check(sorted(lines) == sorted(expected), f"export: {lines}")
    if shots:
        page_a.d.save_screenshot(str(shots / "crowd-leaderboard.png"))
    return page_b


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--screenshots", type=Path, help="directory for the two screenshots")
    args = parser.parse_args()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    positions = thesis_positions()
    work = Path(tempfile.mkdtemp(prefix="gui-check-"))
    cases = work / "cases.epd"
    token_file = work / "organiser.token"
    proc, url = start_server(args.engine, cases, work / "crowd.sqlite", token_file)
    driver = None
    second = None
    try:
        driver = browser(work / "profile")
        driver.get(url)
        page = Page(driver, url)
        page.wait.until(lambda d: page.fen_shown())
        collect_with_promotion(page, cases, *positions[6])
        collect_pinned(page, *positions[11], args.screenshots)
        explore_pins(page, positions[11][0], args.screenshots)
        chess960_and_en_passant(page, *positions[10])
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no console errors {errors}")
        bad_fen(page)
        # The bad FEN's 400 reply is logged by Chromium itself; nothing else may be.
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
                  and not (e["source"] == "network" and "/api/position?fen=8%2F8%2F8" in e["message"])]
        check(not errors, f"no console errors after the bad FEN {errors}")

        def second_expert():
            nonlocal second
            second = browser(work / "profile-b")
            return Page(second, url)
        page_b = crowd(page, second_expert, token_file.read_text().strip(),
                       [positions[6], positions[3]], args.screenshots)
        for who, d in (("first", driver), ("second", page_b.d)):
            errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
            check(not errors, f"no console errors in the {who} crowd session {errors}")
    finally:
        if second:
            second.quit()
        if driver:
            driver.quit()
        proc.kill()
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    print("browser check passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAIL: {e}", file=sys.stderr)
        sys.exit(1)
