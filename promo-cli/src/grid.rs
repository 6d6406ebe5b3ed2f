//! Promotion maps to look at: a matrix as one self-contained HTML page or SVG
//! image, one colour per kind of result, refusals' reasons on hover, differing
//! cells of a diff outlined.

use promo_table::{Category, DType};
use std::fmt::Write;

use crate::escape::markup;

pub use promo_query::diff::Answer;

/// One cell of a map: what it answers, the first answer, and in a diff the second
/// one where it differs.
pub struct GridCell {
    /// What the cell answers, for its hover text: `i8 with u8`, `sqrt(i8)`.
    pub what: String,
    /// The (first) rule set's answer.
    pub a: Answer,
    /// The second rule set's answer, where it differs from `a`.
    pub b: Option<Answer>,
}

/// A matrix to draw: rows are the left operand and columns the right, or rows the
/// one operand and a column per operation.
pub struct Grid {
    /// The heading.
    pub title: String,
    /// One line under it: options, operation, counts.
    pub subtitle: String,
    /// The corner's label: `lhs \ rhs`, `x \ op`.
    pub corner: String,
    /// The rows' labels.
    pub rows: Vec<String>,
    /// The columns' labels.
    pub columns: Vec<String>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<GridCell>>,
}

impl Grid {
    /// The matrix of two operands: a row and a column per dtype, each cell
    /// `answer(row, column)`.
    pub fn pairs(
        title: String,
        subtitle: String,
        dtypes: &[DType],
        mut answer: impl FnMut(usize, usize) -> (Answer, Option<Answer>),
    ) -> Grid {
        let names: Vec<String> = dtypes.iter().map(|d| d.name().to_owned()).collect();
        let cells = (0..dtypes.len())
            .map(|i| {
                (0..dtypes.len())
                    .map(|j| {
                        let (a, b) = answer(i, j);
                        GridCell {
                            what: format!("{} with {}", dtypes[i], dtypes[j]),
                            a,
                            b,
                        }
                    })
                    .collect()
            })
            .collect();
        Grid {
            title,
            subtitle,
            corner: "lhs \\ rhs".to_owned(),
            rows: names.clone(),
            columns: names,
            cells,
        }
    }

    /// The answers of a one-operand operation `op`: a row per dtype, one column.
    pub fn one_operand(
        title: String,
        subtitle: String,
        op: &str,
        answers: impl IntoIterator<Item = (DType, Answer, Option<Answer>)>,
    ) -> Grid {
        let (mut rows, mut cells) = (Vec::new(), Vec::new());
        for (d, a, b) in answers {
            rows.push(d.name().to_owned());
            cells.push(vec![GridCell {
                what: format!("{op}({d})"),
                a,
                b,
            }]);
        }
        Grid {
            title,
            subtitle,
            corner: "x \\ op".to_owned(),
            rows,
            columns: vec![op.to_owned()],
            cells,
        }
    }
}

/// The kinds of result, each with its colour: (CSS class, legend label, fill,
/// text colour).
pub const KINDS: [(&str, &str, &str, &str); 8] = [
    ("bool", "bool", "#b8b8b8", "#000000"),
    ("signed", "signed integer", "#4e79a7", "#ffffff"),
    ("unsigned", "unsigned integer", "#59a14f", "#ffffff"),
    ("float", "float (32 and 64 bits)", "#f28e2b", "#000000"),
    ("narrow", "narrow float (16 bits and fewer)", "#edc948", "#000000"),
    ("complex", "complex", "#b07aa1", "#ffffff"),
    ("bits", "uninterpreted bits", "#9c755f", "#ffffff"),
    ("refused", "refused (hover for the reason)", "#ffffff", "#c0392b"),
];

/// The index into [`KINDS`] of an answer.
pub fn kind(answer: &Answer) -> usize {
    match answer {
        Err(_) => 7,
        Ok(d) => match d.category() {
            Category::Bool => 0,
            Category::Signed => 1,
            Category::Unsigned => 2,
            Category::Float if d.bits() > 16 => 3,
            Category::Float => 4,
            Category::Complex | Category::String => 5,
            Category::Bits => 6,
        },
    }
}

fn short(answer: &Answer) -> &str {
    match answer {
        Ok(d) => d.name(),
        Err(_) => "×",
    }
}

fn long(answer: &Answer) -> String {
    match answer {
        Ok(d) => d.name().to_owned(),
        Err(reason) => format!("refused: {reason}"),
    }
}

/// The hover text of a cell.
fn hover(cell: &GridCell) -> String {
    match &cell.b {
        None => format!("{}: {}", cell.what, long(&cell.a)),
        Some(b) => format!("{}: differs. a: {}; b: {}", cell.what, long(&cell.a), long(b)),
    }
}

/// One self-contained HTML page: inline style, no scripts, nothing fetched.
pub fn html(grid: &Grid) -> String {
    let mut css = String::from(
        "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
         h1{font-size:1.3em;margin:0 0 .2em}p{margin:.2em 0 1em}\
         table.grid{border-collapse:collapse;font-size:12px}\
         .grid th,.grid td{border:1px solid #ddd;padding:3px 5px;text-align:center;min-width:3.2em}\
         .grid th{background:#f4f4f4;font-weight:600}\
         .grid td.differ{outline:3px solid #000;outline-offset:-3px;font-weight:700}\
         .legend span{display:inline-block;margin:0 .8em .6em 0;padding:2px 8px;border:1px solid #ccc;font-size:12px}\n",
    );
    for (class, _, fill, ink) in KINDS {
        let _ = writeln!(css, ".k-{class}{{background:{fill};color:{ink}}}");
    }
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n{css}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>{}</p>\n<div class=\"legend\">",
        markup(&grid.title),
        markup(&grid.title),
        markup(&grid.subtitle)
    );
    for (class, label, _, _) in KINDS {
        let _ = write!(out, "<span class=\"k-{class}\">{}</span>", markup(label));
    }
    if grid.cells.iter().flatten().any(|c| c.b.is_some()) {
        out.push_str("<span class=\"differ\" style=\"outline:3px solid #000;outline-offset:-3px\">outlined: the two differ</span>");
    }
    let _ = write!(
        out,
        "</div>\n<table class=\"grid\">\n<thead><tr><th>{}</th>",
        markup(&grid.corner)
    );
    for c in &grid.columns {
        let _ = write!(out, "<th scope=\"col\">{}</th>", markup(c));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (label, row) in grid.rows.iter().zip(&grid.cells) {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", markup(label));
        for cell in row {
            let class = KINDS[kind(&cell.a)].0;
            let differ = if cell.b.is_some() { " differ" } else { "" };
            let text = match &cell.b {
                None => short(&cell.a).to_owned(),
                Some(b) => format!("{}≠{}", short(&cell.a), short(b)),
            };
            let _ = write!(
                out,
                "<td class=\"k-{class}{differ}\" title=\"{}\">{}</td>",
                markup(&hover(cell)),
                markup(&text)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    out
}

/// The legend of an SVG map, as the HTML page has it: a swatch and a label per kind
/// of result (and the outline, in a diff), wrapped to `width`; and the height it
/// takes from `y`.
fn svg_legend(grid: &Grid, width: usize, y: usize) -> (String, usize) {
    const ROW: usize = 18;
    let mut entries: Vec<(String, &str, &str)> = KINDS
        .iter()
        .map(|&(_, label, fill, _)| (label.to_owned(), fill, "stroke=\"#999\" stroke-width=\"1\""))
        .collect();
    if grid.cells.iter().flatten().any(|c| c.b.is_some()) {
        entries.push((
            "outlined: the two differ".to_owned(),
            "#ffffff",
            "stroke=\"#000\" stroke-width=\"3\"",
        ));
    }
    let mut out = String::from("<g class=\"legend\">\n");
    let (mut x, mut line) = (4, 0);
    for (label, fill, stroke) in entries {
        // About 6 px a character at font size 11, a 12 px swatch and a gap.
        let w = 12 + 4 + label.chars().count() * 6 + 14;
        if x > 4 && x + w > width {
            (x, line) = (4, line + 1);
        }
        let top = y + line * ROW;
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{top}\" width=\"12\" height=\"12\" fill=\"{fill}\" {stroke}/><text x=\"{}\" y=\"{}\">{}</text>",
            x + 16,
            top + 10,
            markup(&label)
        );
        x += w;
    }
    out.push_str("</g>\n");
    (out, (line + 1) * ROW)
}

/// The same grid as one SVG image, for embedding in documentation: the legend of
/// the HTML page, then each cell a rectangle with a `<title>` (shown on hover) and
/// its result as text.
pub fn svg(grid: &Grid) -> String {
    const CELL_W: usize = 56;
    const CELL_H: usize = 22;
    const HEAD: usize = 64;
    let (rows, columns) = (grid.rows.len(), grid.columns.len());
    // A one-column map is still as wide as its legend needs.
    let width = (HEAD + columns * CELL_W + 8).max(480);
    let (legend, legend_height) = svg_legend(grid, width, 2 * CELL_H);
    let top = 2 * CELL_H + legend_height;
    let height = top + HEAD + rows * CELL_H + 8;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n<title>{}</title>\n<text x=\"4\" y=\"16\" font-size=\"14\" font-weight=\"bold\">{}</text>\n<text x=\"4\" y=\"34\">{}</text>\n{legend}",
        markup(&grid.title),
        markup(&grid.title),
        markup(&grid.subtitle)
    );
    for (i, label) in grid.columns.iter().enumerate() {
        let x = HEAD + i * CELL_W + CELL_W / 2;
        let _ = writeln!(
            out,
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            top + HEAD - 8,
            markup(label)
        );
    }
    for (i, label) in grid.rows.iter().enumerate() {
        let y = top + HEAD + i * CELL_H + CELL_H / 2 + 4;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\" font-weight=\"bold\">{}</text>",
            HEAD - 6,
            markup(label)
        );
    }
    for (r, row) in grid.cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (class, _, fill, ink) = KINDS[kind(&cell.a)];
            let (x, y) = (HEAD + c * CELL_W, top + HEAD + r * CELL_H);
            let stroke = if cell.b.is_some() {
                "stroke=\"#000\" stroke-width=\"3\""
            } else {
                "stroke=\"#ddd\" stroke-width=\"1\""
            };
            let text = match &cell.b {
                None => short(&cell.a).to_owned(),
                Some(b) => format!("{}≠{}", short(&cell.a), short(b)),
            };
            let _ = writeln!(
                out,
                "<g class=\"k-{class}\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" width=\"{CELL_W}\" height=\"{CELL_H}\" fill=\"{fill}\" {stroke}/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text></g>",
                markup(&hover(cell)),
                x + CELL_W / 2,
                y + CELL_H / 2 + 4,
                markup(&text)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The agreement matrix of several rule sets as one self-contained HTML page:
/// `agreement[i][j]` is (cells that agree, cells both define); each cell is shaded
/// from white (none agree) to green (all agree), the counts on hover.
pub fn agreement_html(title: &str, names: &[&str], agreement: &[Vec<(usize, usize)>]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Agreement</title>\n<style>\n\
         body{{font-family:system-ui,sans-serif;margin:1.5em;color:#222}}p{{max-width:60em}}\
         table.grid{{border-collapse:collapse;font-size:13px}}\
         .grid th,.grid td{{border:1px solid #ddd;padding:6px 10px;text-align:center;min-width:5em}}\
         .grid th{{background:#f4f4f4}}\n</style>\n</head>\n<body>\n<p>{}</p>\n<table class=\"grid\">\n<thead><tr><th></th>",
        markup(title)
    );
    for n in names {
        let _ = write!(out, "<th scope=\"col\">{}</th>", markup(n));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (name, row) in names.iter().zip(agreement) {
        let _ = write!(out, "<tr><th scope=\"row\">{}</th>", markup(name));
        for (other, &(agree, cells)) in names.iter().zip(row) {
            let share = if cells == 0 {
                0.0
            } else {
                agree as f64 / cells as f64
            };
            // White to green (#59a14f) by the share that agrees.
            let mix = |to: u8| (255.0 - (255.0 - f64::from(to)) * share).round() as u8;
            let _ = write!(
                out,
                "<td style=\"background:#{:02x}{:02x}{:02x}\" title=\"{name} and {other}: {agree} of {cells} common cells agree\">{:.0}%</td>",
                mix(0x59),
                mix(0xa1),
                mix(0x4f),
                100.0 * share
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_follow_category_and_width() {
        assert_eq!(KINDS[kind(&Ok(DType::Bool))].0, "bool");
        assert_eq!(KINDS[kind(&Ok(DType::I8))].0, "signed");
        assert_eq!(KINDS[kind(&Ok(DType::U64))].0, "unsigned");
        assert_eq!(KINDS[kind(&Ok(DType::F32))].0, "float");
        assert_eq!(KINDS[kind(&Ok(DType::BF16))].0, "narrow");
        assert_eq!(KINDS[kind(&Ok(DType::F8E4M3FN))].0, "narrow");
        assert_eq!(KINDS[kind(&Ok(DType::C64))].0, "complex");
        assert_eq!(KINDS[kind(&Ok(DType::Bits8))].0, "bits");
        assert_eq!(KINDS[kind(&Err("no".into()))].0, "refused");
    }

    #[test]
    fn the_svg_map_has_the_html_pages_legend() {
        let answers = [
            [(Ok(DType::I8), None), (Err("no".into()), Some(Ok(DType::I16)))],
            [(Ok(DType::U8), None), (Ok(DType::U8), None)],
        ];
        let grid = Grid::pairs("t".into(), "s".into(), &[DType::I8, DType::U8], |i, j| {
            answers[i][j].clone()
        });
        let svg = svg(&grid);
        for (_, label, fill, _) in KINDS {
            assert!(svg.contains(&format!("fill=\"{fill}\"")), "{label}");
            assert!(svg.contains(&format!(">{}</text>", markup(label))), "{label}");
        }
        assert!(svg.contains(">outlined: the two differ</text>"));
        // Wrapped to the image's width, below the subtitle and above the grid.
        let legend_rows = svg.matches("<rect x=\"4\" ").count();
        assert!(legend_rows > 1, "{svg}");
    }

    #[test]
    fn a_one_operand_map_is_a_column_with_its_operation_in_each_hover() {
        let grid = Grid::one_operand(
            "t".into(),
            "s".into(),
            "sqrt",
            [
                (DType::I8, Ok(DType::F32), None),
                (DType::C64, Err("no".into()), Some(Ok(DType::C64))),
            ],
        );
        let page = html(&grid);
        assert!(
            page.contains("<th>x \\ op</th><th scope=\"col\">sqrt</th></tr>"),
            "{page}"
        );
        assert!(
            page.contains(
                "<tr><th scope=\"row\">i8</th><td class=\"k-float\" title=\"sqrt(i8): f32\">f32</td></tr>"
            ),
            "{page}"
        );
        assert!(
            page.contains("title=\"sqrt(c64): differs. a: refused: no; b: c64\""),
            "{page}"
        );
        assert_eq!(page.matches("<td ").count(), 2);
        let image = svg(&grid);
        assert_eq!(image.matches("<rect x=\"64\" ").count(), 2, "{image}");
    }

    #[test]
    fn reasons_are_escaped() {
        assert_eq!(markup(r#"<a & "b">"#), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
