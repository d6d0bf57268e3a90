#!/usr/bin/env python3
"""The board page (`engine gui`) in a real headless Chromium, driven by Selenium.

Usage: scripts/gui_browser_check.py ENGINE_PATH [--screenshots DIR] [--only PART ...]

Loads thesis positions from the bundled list, drags legal moves, an illegal
move and a promotion, finishes and checks the found / missed / wrong lists
and the reasons, saves the case and checks the line written, switches on the
pin overlay and checks its hexadecimal value against python-chess, and fails
on any browser console error. Then the crowd mode: the organiser loads two
thesis positions through the page, two separate browser sessions join as two
experts (one with a name that is HTML), each enters every legal move of each
position until both are confirmed, and the leaderboard and the export are
checked. Then Play mode: a short timed game against the engine (drag moves,
SAN list, clocks, undo, looking back, an overlay, the downloaded PGN read
back by python-chess). Review mode: the resigned game reviewed, then a
pasted game with a hanging queen: the graph, the blunder's mark clicked, the
better move's arrow checked by python-chess, the annotated PGN downloaded
and read back. Last, the two browser sessions play two games at
once: each page shows only its own game, and the engine's moves arrive by
the server's pushed events (no state requests while waiting). Then a page left open
across a server restart: the notice while the server is down (the clock shown stands
still), a move made after the restart shown with the engine's reply, and the running
game's settings in the setup form after a reload. Last, the Crowd page with no position
loaded says so, and serves the first one the organiser loads. Expected move lists come
from tests/data/thesis_positions.epd, not from the server under test. `--only restart
crowd-empty` runs only those two parts.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import sys
import tempfile
from pathlib import Path

import chess
import chess.pgn
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
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


def start_server(engine, cases, db, token_file, port=0):
    proc = subprocess.Popen([engine, "gui", "--port", str(port), "--cases", str(cases), "--db", str(db),
                             "--organiser-token-file", str(token_file)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.match(r"listening on (http://127\.0\.0\.1:\d+/)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"no 'listening on' line: {line!r} {proc.stderr.read()}")
    return proc, match.group(1)


def browser(profile, downloads=None):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    if downloads:
        options.add_experimental_option("prefs", {
            "download.default_directory": str(downloads), "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class Page:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url
        # The page redraws its lists as the game goes on: an element found
        # just before a redraw is stale, and the wait simply looks again.
        self.wait = WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException])

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
    # Legal moves are shown in SAN (python-chess's), the UCI text beside it.
    board = chess.Board(fen)
    for move in found:
        shown = page.el(f'#found li[data-move="{move}"]').text
        san = board.san(chess.Move.from_uci(move))
        check(shown.endswith(f"{san} {move}"), f"found {move} shown as {san}: {shown!r}")
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


def sans_shown(page):
    # Read in one script: the list is redrawn whenever the page hears from the server.
    return page.d.execute_script(
        "return [...document.querySelectorAll('#play-moves .move')].map((e) => e.textContent)")


def clock_texts(page):
    return [page.el(f"#{c} .time").text for c in ("clock-top", "clock-bottom")]


def play_move(page, candidates, n_before):
    """Drags the first candidate legal after the SANs shown; waits for the reply."""
    board = chess.Board()
    for san in sans_shown(page):
        board.push_san(san)
    move = next(m for m in map(chess.Move.from_uci, candidates) if m in board.legal_moves)
    page.drag(chess.square_name(move.from_square), chess.square_name(move.to_square))
    page.wait.until(lambda d: len(sans_shown(page)) == n_before + 2)
    return board.san(move)


def play_a_game(page, downloads, shots):
    """A 1+0 game at 0.1 s a move: drags, SAN, clocks, undo, review, PGN."""
    page.el("#mode-play").click()
    page.wait.until(lambda d: page.el("#play-setup").is_displayed())
    Select(page.el("#play-strength")).select_by_value("movetime:100")
    for field, value in (("#play-base", "1"), ("#play-inc", "0")):
        page.el(field).clear()
        page.el(field).send_keys(value)
    page.el("#play-new").click()
    page.wait.until(lambda d: page.el("#play-game").is_displayed())
    page.wait.until(lambda d: page.el("#clock-bottom").get_attribute("class") == "clock running")
    check(page.el("#clock-bottom .who").text == "White \u00b7 You", "the person's clock below")
    check(clock_texts(page)[0] == "1:00", f"the engine's clock at the start: {clock_texts(page)}")
    san = play_move(page, ["e2e4"], 0)
    check(sans_shown(page)[0] == san == "e4", f"SAN list {sans_shown(page)}")
    # The engine's clock ran while it thought (0:59, or less on a loaded machine).
    page.wait.until(lambda d: clock_texts(page)[0] != "1:00" and clock_texts(page)[0].startswith("0:5"))
    check(clock_texts(page)[1].startswith("0:5"), f"both clocks ran: {clock_texts(page)}")
    play_move(page, ["g1f3", "b1c3", "a2a3"], 2)
    play_move(page, ["f1c4", "d2d4", "h2h3", "a2a3"], 4)
    shown = sans_shown(page)
    page.el("#play-undo").click()
    page.wait.until(lambda d: len(sans_shown(page)) == 4)
    check(sans_shown(page) == shown[:4], f"undo took back a move and its reply: {sans_shown(page)}")
    play_move(page, ["b1c3", "d2d3", "h2h3"], 4)
    # Looking back: the position after 1. e4.
    page.el('#play-moves .move[data-ply="1"]').click()
    page.wait.until(lambda d: page.el("#play-review").is_displayed())
    check(page.el(".sq[data-sq='e4'] .piece").get_attribute("title") == "white pawn"
          and not page.d.find_elements(By.CSS_SELECTOR, ".sq[data-sq='e2'] .piece"), "the board after 1. e4")
    ActionChains(page.d).send_keys(Keys.ARROW_RIGHT).perform()
    page.wait.until(lambda d: page.el("#play-moves .move.current").get_attribute("data-ply") == "2")
    two = chess.Board()
    for san in sans_shown(page)[:2]:
        two.push_san(san)
    reply = two.move_stack[1]
    marked = sorted(e.get_attribute("data-sq") for e in page.d.find_elements(By.CSS_SELECTOR, ".sq.last"))
    check(marked == sorted([chess.square_name(reply.from_square), chess.square_name(reply.to_square)]),
          f"the right arrow steps to Black's first move, its squares marked: {marked}")
    page.el("#play-live").click()
    page.wait.until(lambda d: not page.el("#play-review").is_displayed())
    board = chess.Board()
    for san in sans_shown(page):
        board.push_san(san)
    Select(page.el("#play-overlay")).select_by_value("attacked_by_them")
    lit = sorted(e.get_attribute("data-sq") for e in page.d.find_elements(By.CSS_SELECTOR, ".sq.on"))
    attacked = sorted(chess.square_name(s) for s in chess.SQUARES if board.is_attacked_by(chess.BLACK, s))
    check(lit == attacked, "the squares Black attacks, as python-chess counts them")
    if shots:
        page.d.save_screenshot(str(shots / "play-game.png"))
    Select(page.el("#play-overlay")).select_by_value("none")
    page.el("#play-pgn").click()
    page.wait.until(lambda d: list(downloads.glob("*.pgn")))
    with open(next(downloads.glob("*.pgn"))) as f:
        game = chess.pgn.read_game(f)
    check(not game.errors, f"python-chess reads the PGN without errors {game.errors}")
    final = game.end().board()
    check(final.fen() == board.fen(), f"the PGN ends where the SAN list does: {final.fen()}")
    shown = page.d.execute_script("return play.game.position.fen").split()
    check(final.board_fen() == shown[0] and "wb"[not final.turn] == shown[1],
          f"the PGN ends in the position on the board: {' '.join(shown)}")
    check(game.headers["TimeControl"] == "60+0" and game.headers["Result"] == "*", "PGN tags")
    page.el("#play-resign").click()
    page.d.switch_to.alert.accept()
    page.wait.until(lambda d: "by resignation" in page.el("#play-status").text)
    check("Black wins (0-1)" in page.el("#play-status").text, f"status: {page.el('#play-status').text}")
    check(page.el("#play-moves li.result").text == "0-1", "the result closes the move list")
    if shots:
        page.d.save_screenshot(str(shots / "play-resigned.png"))


# 3. Qxe5+ gives the queen for a pawn.
HANGING_QUEEN = '[White "Careless"]\n[Black "Careful"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 4. d4 *\n'


def review_done(page):
    page.wait.until(lambda d: "Done" in page.el("#review-status").text
                    or "failed" in page.el("#review-status").text)
    check("Done" in page.el("#review-status").text, f"review status: {page.el('#review-status').text}")


def set_review_depth(page, depth):
    page.d.execute_script(f"document.getElementById('review-depth').value = '{depth}'")


def review_games(page, downloads, shots):
    """The Play game just resigned, reviewed; then a pasted game with a
    hanging queen: graph, the blunder clicked, its arrow, the PGN."""
    set_review_depth(page, 6)
    played = page.d.execute_script("return play.game.moves.length")
    page.el("#play-review-game").click()
    page.wait.until(lambda d: page.el("#review-panel").is_displayed())
    review_done(page)
    evals = page.d.execute_script("return review.data.evals.length")
    check(evals == played + 1, f"the Play game's {played} moves reviewed: {evals} positions")
    check(len(page.d.find_elements(By.CSS_SELECTOR, "#review-graph polyline")) == 1, "the graph is drawn")
    # A pasted game.
    page.el("#review-text").clear()
    page.el("#review-text").send_keys(HANGING_QUEEN)
    page.el("#review-start").click()
    page.wait.until(lambda d: page.d.execute_script(
        "return review.data && review.data.tags.White === 'Careless' && review.data.status === 'done'"))
    review_done(page)
    points = page.el("#review-graph polyline").get_attribute("points").split()
    check(len(points) == 8, f"the graph has a point per position: {len(points)}")
    marks = page.d.find_elements(By.CSS_SELECTOR, "#review-graph circle.mark.blunder")
    check([m.get_attribute("data-ply") for m in marks] == ["5"], "the blunder 3. Qxe5+ is marked on the graph")
    marks[0].click()
    page.wait.until(lambda d: page.d.find_elements(By.CSS_SELECTOR, "#arrows"))
    check(page.el(".sq[data-sq='e5'] .piece").get_attribute("title") == "white queen",
          "clicking the mark shows the position after 3. Qxe5+")
    check("Blunder" in page.el("#review-detail").text, f"detail: {page.el('#review-detail').text}")
    current = page.el("#review-moves .move.current")
    check(current.get_attribute("data-ply") == "5" and "??" in current.text, f"the move list marks it: {current.text}")
    board = chess.Board()
    for san in ["e4", "e5", "Qh5", "Nc6"]:
        board.push_san(san)
    better = chess.Move.from_uci(page.el("#arrows").get_attribute("data-move"))
    check(better in board.legal_moves and better != board.parse_san("Qxe5+"),
          f"the arrow shows a legal better move, {board.san(better)}")
    if shots:
        page.d.save_screenshot(str(shots / "review.png"))
    # A move of the list, and a point of the graph, show their positions.
    page.el('#review-moves .move[data-ply="1"]').click()
    page.wait.until(lambda d: page.d.execute_script("return review.ply") == 1)
    check(page.el(".sq[data-sq='e4'] .piece").get_attribute("title") == "white pawn"
          and not page.d.find_elements(By.CSS_SELECTOR, "#arrows"), "a move clicked: the board after 1. e4, no arrow")
    graph = page.el("#review-graph")
    ActionChains(page.d).move_to_element_with_offset(graph, 0, 0).click().perform()
    page.wait.until(lambda d: page.d.execute_script("return review.ply") != 1)
    check(page.d.execute_script("return review.ply") in (3, 4), "the graph clicked in its middle: the middle position")
    before = set(downloads.glob("*.pgn"))
    page.el("#review-download").click()
    page.wait.until(lambda d: set(downloads.glob("*.pgn")) - before
                    and not list(downloads.glob("*.crdownload")))
    path = next(iter(set(downloads.glob("*.pgn")) - before))
    with open(path) as f:
        game = chess.pgn.read_game(f)
    check(not game.errors, f"python-chess reads the annotated PGN {game.errors}")
    node = game.next().next().next().next().next()
    check(node.san() == "Qxe5+" and chess.pgn.NAG_BLUNDER in node.nags, "the PGN's blunder has ??")
    check(len(node.parent.variations) == 2 and node.parent.variations[1].move == better,
          "the better move is the PGN's variation and the arrow's move")
    check("[%eval" in node.comment and game.headers["Annotator"] == "Pinmask", f"eval comment: {node.comment}")


def state_requests(page):
    """How many times the page has asked for the game's state."""
    return page.d.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/play/state')).length")


def drag_legal(page, candidates):
    board = chess.Board()
    for san in sans_shown(page):
        board.push_san(san)
    move = next(m for m in map(chess.Move.from_uci, candidates) if m in board.legal_moves)
    page.drag(chess.square_name(move.from_square), chess.square_name(move.to_square))
    return board.san(move)


def two_games(page_a, page_b, shots):
    """Two browser sessions, two games at once, each page its own."""
    for page, color in ((page_a, "white"), (page_b, "black")):
        page.el("#mode-play").click()
        page.wait.until(lambda d: page.el("#play-setup").is_displayed())
        Select(page.el("#play-color")).select_by_value(color)
        Select(page.el("#play-strength")).select_by_value("movetime:100")
        page.el("#play-new").click()
        page.wait.until(lambda d: page.el("#play-game").is_displayed())
    # Black's engine opens b's game; the move comes by event.
    page_b.wait.until(lambda d: len(sans_shown(page_b)) == 1)
    asked = (state_requests(page_a), state_requests(page_b))
    for _ in range(3):
        n_a, n_b = len(sans_shown(page_a)), len(sans_shown(page_b))
        drag_legal(page_a, ["d2d4", "g1f3", "c2c4", "b1c3", "e2e3", "h2h3", "a2a3"])
        drag_legal(page_b, ["d7d5", "g8f6", "e7e6", "c7c6", "b8d7", "h7h6", "a7a6"])
        page_a.wait.until(lambda d: len(sans_shown(page_a)) == n_a + 2)
        page_b.wait.until(lambda d: len(sans_shown(page_b)) == n_b + 2)
    check((state_requests(page_a), state_requests(page_b)) == asked,
          "the engine's moves arrived by pushed events, with no state requests")
    games = [p.d.execute_script("return [play.game.game, play.game.person, play.source.readyState]")
             for p in (page_a, page_b)]
    check(games[0][0] != games[1][0] and games[0][1] == "white" and games[1][1] == "black"
          and games[0][2] == games[1][2] == 1, f"two games, two open event streams: {games}")
    a, b = sans_shown(page_a), sans_shown(page_b)
    check(len(a) == 6 and len(b) == 7 and a[0] == "d4" and b[1] == "d5",
          f"each page shows only its own game: {a} / {b}")
    for page, sans in ((page_a, a), (page_b, b)):
        board = chess.Board()
        for san in sans:
            board.push_san(san)
        shown = page.d.execute_script("return play.game.position.fen").split()
        check(shown[0] == board.board_fen(), "the board is the game's own position")
    if shots:
        page_a.d.save_screenshot(str(shots / "play-two-a.png"))
        page_b.d.save_screenshot(str(shots / "play-two-b.png"))


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
    page_b.wait.until(lambda d: page_b.el("#crowd-task").text.startswith("Every position is settled"))
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def restart_mid_game(engine, work, shots):
    """A page left open while the server restarts on the same port and file."""
    port = free_port()
    files = (work / "restart.epd", work / "restart.sqlite", work / "restart.token")
    proc, url = start_server(engine, *files, port=port)
    driver = browser(work / "profile-restart")
    try:
        page = Page(driver, url)
        driver.get(url + "?mode=play")
        page.wait.until(lambda d: page.el("#play-setup").is_displayed())
        # Settings other than the form's defaults, to see them again after a reload.
        Select(page.el("#play-color")).select_by_value("black")
        Select(page.el("#play-strength")).select_by_value("movetime:100")
        for field, value in (("#play-base", "2"), ("#play-inc", "1")):
            page.el(field).clear()
            page.el(field).send_keys(value)
        page.el("#play-new").click()
        page.wait.until(lambda d: len(sans_shown(page)) == 1)
        play_move(page, ["e7e5", "d7d5", "g8f6"], 1)
        # SIGTERM: a clean shutdown ends the event stream; the page notices.
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        page.wait.until(lambda d: page.el("#offline").is_displayed())
        first = clock_texts(page)
        time.sleep(1.5)
        check(clock_texts(page) == first, f"the clocks shown stand still while the server is down: {first}")
        if shots:
            driver.save_screenshot(str(shots / "play-offline.png"))
        proc, _ = start_server(engine, *files, port=port)
        WebDriverWait(driver, 20).until(lambda d: not page.el("#offline").is_displayed())
        check(True, "the notice goes once the server answers again")
        shown = sans_shown(page)
        check(len(shown) == 3, f"the game as it was: {shown}")
        san = play_move(page, ["g8f6", "b8c6", "a7a6", "h7h6"], 3)
        check(sans_shown(page)[3] == san, f"the move made after the restart and the engine's reply: {sans_shown(page)}")
        running = page.el("#clock-top").get_attribute("class")
        check("running" in running or "running" in page.el("#clock-bottom").get_attribute("class"),
              "a clock runs again")
        if shots:
            driver.save_screenshot(str(shots / "play-after-restart.png"))
        driver.refresh()
        page.wait.until(lambda d: page.el("#play-game").is_displayed() and len(sans_shown(page)) == 5)
        form = {f: page.el(f).get_attribute("value") for f in ("#play-color", "#play-strength", "#play-base", "#play-inc")}
        check(form == {"#play-color": "black", "#play-strength": "movetime:100", "#play-base": "2", "#play-inc": "1"},
              f"the running game's settings in the form after a reload: {form}")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e["source"] != "network"]
        check(not errors, f"no script errors across the restart {errors}")
    finally:
        driver.quit()
        proc.kill()
        proc.wait()


def crowd_empty(engine, work, shots):
    """The Crowd page before any position is loaded says so, then serves the first."""
    files = (work / "empty.epd", work / "empty.sqlite", work / "empty.token")
    proc, url = start_server(engine, *files)
    driver = browser(work / "profile-empty")
    try:
        page = Page(driver, url)
        driver.get(url + "?mode=crowd")
        page.wait.until(lambda d: page.el("#crowd-panel").is_displayed())
        page.el("#crowd-name").send_keys("Early")
        page.el("#crowd-join-button").click()
        page.wait.until(lambda d: page.el("#crowd-task").text)
        said = page.el("#crowd-task").text
        check(said.startswith("No positions are loaded yet") and "organiser" in said.lower(),
              f"with no position loaded the page says so: {said!r}")
        if shots:
            driver.save_screenshot(str(shots / "crowd-empty.png"))
        page.el("#crowd-organiser summary").click()
        page.el("#org-token").send_keys(files[2].read_text().strip())
        page.el("#org-load-suite").click()
        page.wait.until(lambda d: page.el("#crowd-task").text.startswith("Position"))
        check(True, f"the first position loaded is served at once: {page.el('#crowd-task').text!r}")
    finally:
        driver.quit()
        proc.kill()
        proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--screenshots", type=Path, help="directory for the screenshots")
    parser.add_argument("--only", nargs="+", choices=["restart", "crowd-empty"],
                        help="run only these parts")
    args = parser.parse_args()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    positions = thesis_positions()
    work = Path(tempfile.mkdtemp(prefix="gui-check-"))
    if args.only:
        try:
            if "restart" in args.only:
                restart_mid_game(args.engine, work, args.screenshots)
            if "crowd-empty" in args.only:
                crowd_empty(args.engine, work, args.screenshots)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        print("browser check passed")
        return
    cases = work / "cases.epd"
    token_file = work / "organiser.token"
    proc, url = start_server(args.engine, cases, work / "crowd.sqlite", token_file)
    driver = None
    second = None
    try:
        downloads = work / "downloads"
        downloads.mkdir()
        driver = browser(work / "profile", downloads)
        driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        driver.get(url)
        page = Page(driver, url)
        page.wait.until(lambda d: page.fen_shown())
        collect_with_promotion(page, cases, *positions[6])
        collect_pinned(page, *positions[11], args.screenshots)
        explore_pins(page, positions[11][0], args.screenshots)
        chess960_and_en_passant(page, *positions[10])
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no console errors {errors}")
        play_a_game(page, downloads, args.screenshots)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no console errors in Play mode {errors}")
        review_games(page, downloads, args.screenshots)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no console errors in Review mode {errors}")
        page.el("#mode-collect").click()
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
        two_games(page, page_b, args.screenshots)
        for who, d in (("first", driver), ("second", page_b.d)):
            errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
            check(not errors, f"no console errors in the {who} Play session {errors}")
        restart_mid_game(args.engine, work, args.screenshots)
        crowd_empty(args.engine, work, args.screenshots)
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
