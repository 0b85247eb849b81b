"""Conversion core: read a source document into a table, write the table in the target format.

A table is (header, rows): header is a list of column names (or None when has_header is false) and rows is a
list of lists of cell values. PDFs written here carry the table both as a rendered grid and as an embedded
``table.csv`` attachment, so PDF -> CSV/Excel is lossless for them; other PDFs are read by text extraction.
"""
from __future__ import annotations

import base64
import binascii
import codecs
import csv
import io
import re
import time
from dataclasses import dataclass
from typing import Any, Optional

from openpyxl import load_workbook
from pypdf import PdfReader, PdfWriter
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

from xlsx_writer import write_xlsx

FORMATS = ("excel", "csv", "pdf")
FORMAT_ALIASES = {"xlsx": "excel", "xls": "excel", "excel": "excel", "csv": "csv", "pdf": "pdf"}
PDF_ATTACHMENT = "table.csv"
_NUM_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


class ConversionError(ValueError):
    """Raised for invalid input; maps to HTTP 400."""


@dataclass
class Options:
    encoding: str = "utf-8"
    delimiter: str = ","
    has_header: bool = True
    sheet_name: str = "Sheet1"

    @classmethod
    def parse(cls, raw: Any) -> "Options":
        if raw is None:
            return cls()
        if not isinstance(raw, dict):
            raise ConversionError("'options' must be an object")
        opts = cls()
        enc = raw.get("encoding")
        if enc is not None:
            if not isinstance(enc, str):
                raise ConversionError("'options.encoding' must be a string")
            try:
                codecs.lookup(enc)
            except LookupError:
                raise ConversionError(f"Unknown encoding: {enc}")
            opts.encoding = enc
        delim = raw.get("delimiter")
        if delim is not None:
            if not isinstance(delim, str) or len(delim) != 1:
                raise ConversionError("'options.delimiter' must be a single character")
            opts.delimiter = delim
        header = raw.get("has_header")
        if header is not None:
            if not isinstance(header, bool):
                raise ConversionError("'options.has_header' must be a boolean")
            opts.has_header = header
        sheet = raw.get("sheet_name")
        if sheet is not None:
            if not isinstance(sheet, str) or not sheet:
                raise ConversionError("'options.sheet_name' must be a non-empty string")
            opts.sheet_name = sheet
        return opts


def normalize_format(value: Any, field: str) -> str:
    if not isinstance(value, str) or value.strip().lower() not in FORMAT_ALIASES:
        raise ConversionError(f"'{field}' must be one of: {', '.join(FORMATS)}")
    return FORMAT_ALIASES[value.strip().lower()]


# ---------------------------------------------------------------- readers

def _infer(value: str) -> Any:
    """Turn numeric CSV text into int/float so spreadsheets get real numbers."""
    v = value.strip()
    if _NUM_RE.match(v) and not (len(v) > 1 and v.lstrip("+-")[:1] == "0" and v.lstrip("+-")[1:2].isdigit()):
        try:
            return int(v)
        except ValueError:
            return float(v)
    return value


def _split_header(records: list[list[Any]], has_header: bool):
    if not records:
        raise ConversionError("Input contains no data")
    width = max(len(r) for r in records)
    records = [list(r) + [None] * (width - len(r)) for r in records]
    if has_header:
        header = ["" if h is None else str(h) for h in records[0]]
        return header, records[1:]
    return None, records


def read_csv(raw: bytes, opts: Options):
    try:
        text = raw.decode(opts.encoding)
    except (UnicodeDecodeError, LookupError) as e:
        raise ConversionError(f"Cannot decode CSV with encoding '{opts.encoding}': {e}")
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=opts.delimiter)
    try:
        records = [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as e:
        raise ConversionError(f"Malformed CSV: {e}")
    header, rows = _split_header(records, opts.has_header)
    return header, [[_infer(c) if isinstance(c, str) else c for c in r] for r in rows]


def read_excel(raw: bytes, opts: Options, sheet_requested: bool):
    try:
        wb = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as e:  # openpyxl raises many kinds of errors for bad input
        raise ConversionError(f"Invalid Excel file: {e}")
    try:
        if opts.sheet_name in wb.sheetnames:
            ws = wb[opts.sheet_name]
        elif sheet_requested:
            raise ConversionError(f"Sheet '{opts.sheet_name}' not found; available: {', '.join(wb.sheetnames)}")
        else:
            ws = wb.worksheets[0]
        records = []
        for row in ws.iter_rows(values_only=True):
            if row and any(c is not None and str(c).strip() != "" for c in row):
                records.append(list(row))
    finally:
        wb.close()
    # trim trailing all-empty columns
    if records:
        width = max((max((i + 1 for i, c in enumerate(r) if c is not None), default=0) for r in records), default=0)
        records = [r[:width] for r in records]
    return _split_header(records, opts.has_header)


def read_pdf(raw: bytes, opts: Options):
    try:
        reader = PdfReader(io.BytesIO(raw))
        attachments = reader.attachments
    except Exception as e:
        raise ConversionError(f"Invalid PDF file: {e}")
    if PDF_ATTACHMENT in attachments and attachments[PDF_ATTACHMENT]:
        data = attachments[PDF_ATTACHMENT][0]
        return read_csv(data, Options(encoding="utf-8", delimiter=",", has_header=opts.has_header))
    # generic PDF: one table row per text line, cells separated by tabs or runs of 2+ spaces
    records = []
    try:
        for page in reader.pages:
            text = page.extract_text(extraction_mode="layout") or ""
            for line in text.splitlines():
                if line.strip():
                    records.append([_infer(c) for c in re.split(r"\t+| {2,}", line.strip())])
    except Exception as e:
        raise ConversionError(f"Cannot extract text from PDF: {e}")
    header, rows = _split_header(records, opts.has_header)
    return header, rows


# ---------------------------------------------------------------- writers

def _cell_text(v: Any) -> str:
    return "" if v is None else str(v)


def write_csv(header, rows, opts: Options) -> bytes:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, delimiter=opts.delimiter, lineterminator="\n")
    if header is not None:
        writer.writerow(header)
    for r in rows:
        writer.writerow([_cell_text(c) for c in r])
    try:
        return buf.getvalue().encode(opts.encoding)
    except UnicodeEncodeError as e:
        raise ConversionError(f"Cannot encode output with encoding '{opts.encoding}': {e}")


def write_excel(header, rows, opts: Options) -> bytes:
    return write_xlsx(header, rows, opts.sheet_name)


def write_pdf(header, rows, opts: Options) -> bytes:
    styles = getSampleStyleSheet()
    cell_style = styles["BodyText"].clone("cell", fontSize=8, leading=10)
    head_style = cell_style.clone("head", fontName="Helvetica-Bold")
    ncols = max([len(header or [])] + [len(r) for r in rows]) or 1
    pagesize = landscape(A4) if ncols > 6 else A4
    doc = SimpleDocTemplate(io.BytesIO(), pagesize=pagesize, leftMargin=12 * mm, rightMargin=12 * mm,
                            topMargin=12 * mm, bottomMargin=12 * mm, title="Converted data",
                            author="StructuredDataConvertor")
    col_width = (pagesize[0] - 24 * mm) / ncols

    def para(v, style):
        text = _cell_text(v).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return Paragraph(text, style)

    data = []
    if header is not None:
        data.append([para(h, head_style) for h in header] + [""] * (ncols - len(header)))
    for r in rows:
        data.append([para(c, cell_style) for c in r] + [""] * (ncols - len(r)))
    if not data:
        data = [[""]]
    table = LongTable(data, colWidths=[col_width] * ncols, repeatRows=1 if header is not None else 0)
    style = [("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]
    if header is not None:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey))
    table.setStyle(TableStyle(style))
    story = [Paragraph(f"{opts.sheet_name}: {len(rows)} rows x {ncols} columns", styles["Heading2"]),
             Spacer(1, 4 * mm), table]
    buf = io.BytesIO()
    doc.filename = buf
    doc.build(story)

    # attach the table as CSV so the PDF converts back losslessly
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buf.getvalue())))
    writer.add_attachment(PDF_ATTACHMENT, write_csv(header, rows, Options()))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


READERS = {"csv": read_csv, "pdf": read_pdf}
WRITERS = {"csv": write_csv, "excel": write_excel, "pdf": write_pdf}


_MAGIC = {"excel": b"PK\x03\x04", "pdf": b"%PDF"}


def _unwrap_double_base64(raw: bytes, source: str) -> bytes:
    """Binary sources (Excel, PDF) that arrive base64-encoded twice are decoded once more.

    A real .xlsx starts with the ZIP signature and a PDF with ``%PDF``; when the decoded bytes are not such a
    file but are themselves base64 text of one, clients have clearly encoded the file twice.
    """
    magic = _MAGIC.get(source)
    if magic is None or raw.startswith(magic):
        return raw
    try:
        inner = base64.b64decode(re.sub(rb"\s+", b"", raw), validate=True)
    except (binascii.Error, ValueError):
        return raw
    return inner if inner.startswith(magic) else raw


def convert(payload: Any) -> dict:
    """Run one conversion request. Returns the response dict; raises ConversionError on bad input."""
    started = time.perf_counter()
    if not isinstance(payload, dict):
        raise ConversionError("Request body must be a JSON object")
    source = normalize_format(payload.get("source_format"), "source_format")
    target = normalize_format(payload.get("target_format"), "target_format")
    raw_options = payload.get("options")
    opts = Options.parse(raw_options)
    data = payload.get("data")
    if not isinstance(data, str) or not data.strip():
        raise ConversionError("'data' must be a non-empty base64 string")
    try:
        raw = base64.b64decode(re.sub(r"\s+", "", data), validate=True)
    except (binascii.Error, ValueError):
        raise ConversionError("'data' is not valid base64")
    if not raw:
        raise ConversionError("'data' decodes to an empty file")
    raw = _unwrap_double_base64(raw, source)

    if source == "excel":
        sheet_requested = isinstance(raw_options, dict) and raw_options.get("sheet_name") is not None
        header, rows = read_excel(raw, opts, sheet_requested)
    else:
        header, rows = READERS[source](raw, opts)
    result = WRITERS[target](header, rows, opts)
    columns = max([len(header or [])] + [len(r) for r in rows])
    elapsed = max(time.perf_counter() - started, 1e-6)
    return {
        "success": True,
        "message": f"Converted {source} to {target}",
        "result": base64.b64encode(result).decode("ascii"),
        "metadata": {
            "source_size": len(raw),
            "target_size": len(result),
            "conversion_time": round(elapsed, 6) or 1e-6,
            "rows_count": len(rows),
            "columns_count": columns,
        },
    }


def failure(message: str) -> dict:
    return {"success": False, "message": message, "result": "", "metadata": None}
