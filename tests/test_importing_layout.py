"""Layout analysis on text exports (made-up transcripts): page marks, margin columns,
running lines, captions, indexes, speaker turns and the no-structure fallback."""

from engine.importing import parse_text
from engine.importing.cover import parse_cover
from engine.importing.layout import strip_clock_column
from engine.importing.parse import UNSTRUCTURED
from engine.importing.textpages import split_text_pages
from engine.synthetic import generate_hearing

BLOCK = "1 2 3 4 5 6 7 8 9\n" + "\n".join(str(n) for n in range(10, 26))


def test_generators_canonical_text_imports_as_itself():
    # Before: "No hearing text was found" (the text mentions CDCR, a cover marker).
    hearing = generate_hearing(11, words=1500)
    parsed = parse_text(hearing.text.encode())
    assert parsed.text == hearing.text
    assert not parsed.notices


def test_margin_number_blocks_and_page_numbers_split_pages_and_disappear():
    text = (
        "COVER LINE\nAcme Transcripts, Inc.\n2\n"
        f"{BLOCK}\nCOMMISSIONER PELL: We are on the record.\nINMATE ROOK: Yes.\nAcme Transcripts, Inc.\n3\n"
        f"{BLOCK}\nCOMMISSIONER PELL: Thank you.\nAcme Transcripts, Inc.\n4\n"
    )
    found = split_text_pages(text)
    assert found.number_blocks == 2 and found.page_numbers == 3
    assert len(found.pages) == 3
    assert not any(line.strip().isdigit() for page in found.pages for line in page)


def test_a_number_block_glued_to_a_line_end_is_removed():
    text = f"COMMISSIONER PELL: On the record.{BLOCK}\nINMATE ROOK: Yes, sir.\n"
    parsed = parse_text(text.encode())
    assert parsed.text == "COMMISSIONER PELL: On the record.\nINMATE ROOK: Yes, sir."


def test_filing_stamps_clock_times_and_line_numbers_leave_the_text():
    pages = []
    for page in (1, 2, 3):
        lines = [
            f"Case 3:21-cv-00042-ABC Document 77 Filed 05/06/21 Page {page} of 3 PageID #: {900 + page}"
        ]
        lines.append(f"{'':>60}{page}")
        for n in range(1, 6):
            turn = "THE COURT: Be seated." if n == 1 else f"words of line {n} on page {page}"
            lines.append(f"10:{page:02d}:{n:02d}   {n:>2}   {turn}")
        pages.append("\n\n".join(lines))
    parsed = parse_text("\n".join(pages).encode())
    assert "PageID" not in parsed.text and "10:0" not in parsed.text
    assert (
        parsed.text.split("\n")[0]
        == "THE COURT: Be seated. words of line 2 on page 1 words of line 3 on page 1 words of line 4 on page 1 words of line 5 on page 1"
    )
    assert parsed.layout["filing_stamps_removed"] == 3
    assert parsed.layout["clock_times_removed"] == 15


def test_clock_column_needs_most_lines():
    lines = ["09:15:02 1 text", "2 text", "3 text", "4 text", "5 text", "6 text"]
    assert strip_clock_column(lines) == (lines, 0)


def test_word_index_pages_are_dropped_with_a_notice():
    body = "MR. VANCE: May it please the Court.\nJUSTICE ORR: Why?\n"
    index = "\n".join(
        f"word{n} {n}:{n % 20 + 1} {n + 1}:3,4 other{n} 2:{n % 25 + 1}" for n in range(30)
    )
    parsed = parse_text(f"{body}\f{index}\n".encode())
    assert parsed.text == body.strip()
    assert parsed.layout["word_index_pages"] == [2]
    assert any("word-index" in n for n in parsed.notices)


def test_dot_leader_index_lines_do_not_reach_the_text():
    text = (
        "INDEX\nPage Proceedings ........... 3 Decision ........... 40\n"
        "PROCEEDINGS\nCOMMISSIONER PELL: Good morning.\n"
    )
    parsed = parse_text(text.encode())
    assert parsed.text == "PROCEEDINGS\nCOMMISSIONER PELL: Good morning."


def test_two_turns_on_one_line_become_two_utterances():
    text = (
        "COMMISSIONER PELL: Spell it.\nINMATE ROOK: R-O-O-K.\n"
        "COMMISSIONER PELL: Thank you. INMATE ROOK: You're welcome.\n"
    )
    parsed = parse_text(text.encode())
    assert parsed.text.split("\n")[-2:] == [
        "COMMISSIONER PELL: Thank you.",
        "INMATE ROOK: You're welcome.",
    ]


def test_examination_turns_take_the_examiner_and_the_witness():
    text = (
        "THE COURT: Call your witness.\n"
        "DANA MERCER, PLAINTIFF'S WITNESS, SWORN\n"
        "DIRECT EXAMINATION\n"
        "BY MR. OKAFOR:\n"
        "Q. Where do you work?\n"
        "A. At the mill,\nin town.\n"
        "JUROR TALLIS: Can you repeat that?\n"
    )
    parsed = parse_text(text.encode())
    speakers = [u.speaker for u in parsed.utterances if u.speaker]
    assert speakers == ["THE COURT", "MR. OKAFOR", "DANA MERCER", "JUROR TALLIS"]
    assert "DANA MERCER: At the mill, in town." in parsed.text.split("\n")


def test_text_without_structure_imports_one_utterance_per_paragraph_with_a_notice():
    text = "A note about the hearing.\nIt goes on.\n\nA second paragraph.\n"
    parsed = parse_text(text.encode())
    assert parsed.text == "A note about the hearing. It goes on.\nA second paragraph."
    assert len(parsed.utterances) == 2
    assert parsed.notices == [UNSTRUCTURED]


def test_bracketed_caption_gives_the_cover_metadata():
    cover = [
        "SUBSEQUENT PAROLE CONSIDERATION HEARING STATE OF CALIFORNIA",
        "In the matter of the Life ) CDC Number B-12345 Term Parole Consideration )",
        "Hearing of: )",
        "MILO FERNHOLT ) _________ )",
        "SOLEDAD, CALIFORNIA CORRECTIONAL TRAINING FACILITY",
        "MARCH 3, 2010 9:05 A.M.",
        "PANEL PRESENT:",
        "ANA VOSS, Presiding Commissioner   LEE TRAN, Deputy Commissioner",
        "OTHERS PRESENT:",
        "MILO FERNHOLT, Inmate",
        "JUNE ABERLE, Tri-Valley Transcripts, Inc.",
    ]
    meta = parse_cover(cover)
    assert meta["cdcr_number"] == "B12345"
    assert meta["incarcerated_person"] == "Milo Fernholt"
    assert meta["institution"] == "Correctional Training Facility"
    assert meta["location"] == "Soledad, California"
    assert (meta["hearing_date"], meta["hearing_time"]) == ("2010-03-03", "09:05")
    assert [p["name"] for p in meta["participants"]] == ["Ana Voss", "Lee Tran", "Milo Fernholt"]
    assert meta["transcriber"] == "June Aberle"


def test_court_caption_gives_court_case_number_judge_and_counsel():
    cover = [
        "IN THE UNITED STATES DISTRICT COURT",
        "FOR THE WESTERN DISTRICT OF NOWHERE",
        "BLUEFIN LLC, )(",
        "PLAINTIFF, )( CIVIL ACTION NO.",
        ")( 4:18-CV-00321-XYZ",
        "VS. )( JUNE 2, 2019",
        "REDWING CORP. )( 1:30 P.M.",
        "BEFORE THE HONORABLE JUDGE ORLA QUENT",
        "FOR THE PLAINTIFF:",
        "MR. ABEL STROM",
        "STROM & PARTNERS LLP",
        "12 Harbor Road, Suite 4",
        "FOR THE DEFENDANT: MS. CORA LYLE",
        "COURT REPORTER: MS. IDA PELL, CSR",
    ]
    meta = parse_cover(cover)
    assert meta["court"] == "United States District Court for the Western District of Nowhere"
    assert meta["case_number"] == "4:18-CV-00321-XYZ"
    assert (meta["hearing_date"], meta["hearing_time"]) == ("2019-06-02", "13:30")
    assert [(p["name"], p["role"]) for p in meta["participants"]] == [
        ("Orla Quent", "Judge"),
        ("Mr. Abel Strom", "Counsel for the Plaintiff"),
        ("Ms. Cora Lyle", "Counsel for the Defendant"),
    ]
    assert meta["transcriber"] == "Ms. Ida Pell"


def test_a_file_that_starts_mid_turn_keeps_its_first_lines():
    text = "and that was the end of it.\nCOMMISSIONER PELL: Thank you.\nINMATE ROOK: Yes.\n"
    parsed = parse_text(text.encode())
    assert parsed.text.split("\n")[0] == "and that was the end of it."


def test_a_second_transcripts_cover_inside_the_body_stays_out_of_the_turns():
    text = (
        "COMMISSIONER PELL: Thank you.\nINMATE ROOK: Yes, sir.\n"
        "SUBSEQUENT PAROLE CONSIDERATION HEARING\nSTATE OF CALIFORNIA\n"
        "In the matter of the Life )\nCOMMISSIONER DALE: Good morning.\n"
    )
    lines = parse_text(text.encode()).text.split("\n")
    assert lines[1] == "INMATE ROOK: Yes, sir."
    assert lines[-1] == "COMMISSIONER DALE: Good morning."


def test_leading_line_numbers_in_a_run_are_removed_in_a_long_text_page():
    numbered = "\n".join(f"{n} line {n} of the hearing" for n in range(1, 8))
    text = "INTRODUCTION\n" + "\n".join("a note without numbers" for _ in range(20)) + "\n"
    text += f"COMMISSIONER PELL: Start.\n{numbered}\n"
    parsed = parse_text(text.encode())
    assert "COMMISSIONER PELL: Start. line 1 of the hearing line 2" in parsed.text


def test_soft_hyphens_are_invisible_and_a_dash_with_one_is_a_double_dash():
    text = "JUSTICE ORR: Well, as -\u00ad as I said, it is cer\u00adtain.\n"
    assert parse_text(text.encode()).text == "JUSTICE ORR: Well, as -- as I said, it is certain."


def test_a_reporter_named_in_mixed_case_is_the_transcriber_but_a_firm_is_not_counsel():
    from engine.importing.court import parse_court_caption

    meta = parse_court_caption(
        ["FOR THE PLAINTIFF:", "Harbor Partners", "COURT REPORTER: Ida Pell, CSR, RMR"]
    )
    assert meta == {"transcriber": "Ida Pell"}


def test_a_short_last_page_loses_its_clock_times_and_line_numbers_like_the_pages_before():
    # Before: a last page of two lines kept "09:10:34 1" (fewer than three numbered
    # lines is no evidence on its own) and ran into the previous turn.
    full = "\n".join(
        f"09:0{n // 10}:{n % 10}0 {n} THE COURT: Line {n} of the page." for n in range(1, 26)
    )
    text = f"{full}\f09:10:34 1 THE COURT: Overruled.\n09:10:38 2 (Recess.)\n"
    parsed = parse_text(text.encode())
    assert parsed.text.split("\n")[-2:] == ["THE COURT: Overruled.", "(Recess.)"]
    assert "09:10" not in parsed.text


def test_the_short_last_page_of_a_word_index_is_left_out_with_the_others():
    body = "\n".join(f"{n} THE COURT: Sentence number {n} here." for n in range(1, 26))
    words = "abc ajar alpha beta delta gamma kappa lambda omega sigma theta zeta".split()
    index = "\n".join(f"{w} {n}:{n % 20 + 1} {n + 1}:{n % 9 + 2}" for n, w in enumerate(words * 3))
    text = f"{body}\f{index}\fyet 3:5 you 5:19 7:12\nyoung 5:1\n"
    parsed = parse_text(text.encode())
    assert parsed.layout["word_index_pages"] == [2, 3]
    assert "young" not in parsed.text and "5:19" not in parsed.text
