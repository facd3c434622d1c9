//! The rules around the move generator: game ends (checkmate, stalemate,
//! the fifty-move rule, threefold repetition, insufficient material, the
//! optional ply cap), move names and the move reader.
//!
//! Move generation itself is `cozy-chess` (MIT): legal moves, castling
//! rights, en passant and promotion. It names castling as the king taking
//! its own rook (`e1h1`); every name shown or read here is UCI's (`e1g1`).

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};

use crate::core::{InvalidAction, Player};

/// Plies without a capture or a pawn move that draw (fifty moves each).
pub const FIFTY_MOVES: u8 = 100;
/// Occurrences of one position that draw.
pub const REPETITIONS: usize = 3;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move is mated: the other side wins.
    Checkmate(Player),
    Stalemate,
    FiftyMoves,
    Repetition,
    /// No sequence of moves could mate (OpenSpiel's and FIDE's dead
    /// positions without pawns, rooks or queens).
    Material,
    /// The config's ply cap.
    PlyCap,
}

impl End {
    pub fn winner(self) -> Option<Player> {
        match self {
            End::Checkmate(w) => Some(w),
            _ => None,
        }
    }

    /// How the game ended, in words.
    pub fn describe(self) -> &'static str {
        match self {
            End::Checkmate(0) => "checkmate, White wins",
            End::Checkmate(_) => "checkmate, Black wins",
            End::Stalemate => "draw by stalemate",
            End::FiftyMoves => "draw by the fifty-move rule",
            End::Repetition => "draw by threefold repetition",
            End::Material => "draw by insufficient material",
            End::PlyCap => "draw at the ply limit",
        }
    }
}

/// The seat of a colour: White is player 0.
pub fn seat(color: Color) -> Player {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The legal moves of the side to move, in the generator's order.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(48);
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// The number of legal moves, without listing them.
pub fn count_moves(board: &Board) -> usize {
    let mut n = 0;
    board.generate_moves(|piece_moves| {
        n += piece_moves.len();
        false
    });
    n
}

/// Whether the side to move has a legal move.
pub fn can_move(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// Whether a move is castling (the king onto its own rook, as the generator
/// names it).
pub fn is_castle(board: &Board, mv: Move) -> bool {
    board.color_on(mv.to) == Some(board.side_to_move())
        && board.piece_on(mv.from) == Some(Piece::King)
}

/// The UCI name of a legal move (`e2e4`, `e7e8q`, castling `e1g1`).
pub fn uci(board: &Board, mv: Move) -> String {
    let mut to = mv.to;
    if is_castle(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        to = Square::new(file, mv.from.rank());
    }
    let mut name = format!("{}{}", mv.from, to);
    if let Some(p) = mv.promotion {
        name.push(char::from(p));
    }
    name
}

/// The key a position is repeated under (FIDE's sameness: pieces, side to
/// move, castling rights, and en passant only when a capture is legal).
pub fn repetition_key(board: &Board) -> u64 {
    /// Odd multipliers that keep each en passant file's key apart.
    const EP_SALT: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut key = board.hash_without_ep();
    if let Some(file) = board.en_passant() {
        let rank = Rank::Sixth.relative_to(board.side_to_move());
        let target = Square::new(file, rank);
        let pawns = board.colored_pieces(board.side_to_move(), Piece::Pawn);
        let mut capture = false;
        board.generate_moves_for(pawns, |pm| {
            capture |= pm.to.has(target);
            capture
        });
        if capture {
            key ^= EP_SALT.wrapping_mul(file as u64 + 1);
        }
    }
    key
}

/// Whether neither side could ever mate: only kings, knights and bishops,
/// and then one minor piece in all, or bishops all on one colour of square
/// (OpenSpiel's `HasSufficientMaterial`, negated).
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    let by_side = |c: Color| board.colors(c) & (knights | bishops);
    let (white, black) = (by_side(Color::White), by_side(Color::Black));
    // Two knights on one side can help-mate; a knight with any other minor
    // piece (either side's) can too.
    if (white & knights).len() > 1 || (black & knights).len() > 1 {
        return false;
    }
    if !knights.is_empty() {
        return (white | black).len() == 1;
    }
    let on = |squares: BitBoard| !(bishops & squares).is_empty();
    !(on(BitBoard::LIGHT_SQUARES) && on(BitBoard::DARK_SQUARES))
}

/// A move word's parts, before it is matched with the legal moves.
#[derive(Debug, PartialEq)]
enum Named {
    /// `e2e4`, `e7e8q`, `e2-e4`, `e7e8=Q`.
    Uci(Square, Square, Option<Piece>),
    /// SAN: piece, source file and rank if given, target, promotion.
    San(Piece, Option<File>, Option<Rank>, Square, Option<Piece>),
    Castle {
        short: bool,
    },
}

fn square(file: u8, rank: u8) -> Option<Square> {
    let f = File::try_index(usize::from(file.checked_sub(b'a')?))?;
    let r = Rank::try_index(usize::from(rank.checked_sub(b'1')?))?;
    Some(Square::new(f, r))
}

fn promotion(c: u8) -> Option<Piece> {
    match c.to_ascii_lowercase() {
        b'q' => Some(Piece::Queen),
        b'r' => Some(Piece::Rook),
        b'b' => Some(Piece::Bishop),
        b'n' => Some(Piece::Knight),
        _ => None,
    }
}

/// Reads one word as a move name, if it is one: UCI (any case, an optional
/// `-` or `x` between the squares, an optional `=` before the promotion),
/// castling (`O-O`, `0-0-0`), or SAN with its piece letter in capitals
/// (`Nf3`, `exd5`, `Rad1`, `e8=Q`, check marks dropped).
fn read_word(word: &str) -> Option<Named> {
    let w = word.trim_end_matches(['+', '#']).trim_matches('-');
    match w.to_ascii_lowercase().as_str() {
        "o-o" | "0-0" => return Some(Named::Castle { short: true }),
        "o-o-o" | "0-0-0" => return Some(Named::Castle { short: false }),
        _ => {}
    }
    let b = w.as_bytes();
    // UCI: square, separator?, square, `=`?, promotion?
    let lower: Vec<u8> = b.iter().map(u8::to_ascii_lowercase).collect();
    if lower.len() >= 4 {
        let from = square(lower[0], lower[1]);
        let rest = if matches!(lower[2], b'-' | b'x') {
            &lower[3..]
        } else {
            &lower[2..]
        };
        if let (Some(from), Some(to)) = (from, rest.get(..2).and_then(|s| square(s[0], s[1]))) {
            let tail = rest[2..].strip_prefix(b"=").unwrap_or(&rest[2..]);
            return match tail {
                [] => Some(Named::Uci(from, to, None)),
                [p] => promotion(*p).map(|p| Named::Uci(from, to, Some(p))),
                _ => None,
            };
        }
    }
    // SAN.
    let (piece, body) = match b.first()? {
        b'N' => (Piece::Knight, &b[1..]),
        b'B' => (Piece::Bishop, &b[1..]),
        b'R' => (Piece::Rook, &b[1..]),
        b'Q' => (Piece::Queen, &b[1..]),
        b'K' => (Piece::King, &b[1..]),
        _ => (Piece::Pawn, b),
    };
    if piece == Piece::Pawn {
        // `e4`, `exd5`, with `=Q` (or a bare `Q`) after a promotion square.
        let (body, promo) = match body {
            [rest @ .., b'=', p] => (rest, Some(promotion(*p)?)),
            [rest @ .., r, p] if r.is_ascii_digit() && p.is_ascii_alphabetic() => {
                (&body[..=rest.len()], Some(promotion(*p)?))
            }
            _ => (body, None),
        };
        return match *body {
            [tf, tr] => Some(Named::San(piece, None, None, square(tf, tr)?, promo)),
            [ff, b'x', tf, tr] => {
                let file = File::try_index(usize::from(ff.checked_sub(b'a')?))?;
                Some(Named::San(piece, Some(file), None, square(tf, tr)?, promo))
            }
            _ => None,
        };
    }
    let [head @ .., tf, tr] = body else {
        return None;
    };
    let to = square(*tf, *tr)?;
    let head = head.strip_suffix(b"x").unwrap_or(head);
    let (file, rank) = match *head {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(f), None),
        [r @ b'1'..=b'8'] => (None, Some(r)),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Some(f), Some(r)),
        _ => return None,
    };
    Some(Named::San(
        piece,
        file.and_then(|f| File::try_index(usize::from(f - b'a'))),
        rank.and_then(|r| Rank::try_index(usize::from(r - b'1'))),
        to,
        None,
    ))
}

/// What the words of a reply name: the one legal move, or why not.
///
/// # Errors
/// No move named (with the first illegal or unclear name seen), or two
/// different moves (a hedge).
pub fn read_move(board: &Board, text: &str) -> Result<Move, InvalidAction> {
    const HINT: &str = "reply with one legal move in UCI like `e2e4` (promotion `e7e8q`, castling `e1g1`) or in SAN like `Nf3`";
    let legal: Vec<(Move, String)> = legal_moves(board)
        .into_iter()
        .map(|mv| (mv, uci(board, mv)))
        .collect();
    let mut found: Option<Move> = None;
    let mut problem: Option<String> = None;
    // A word repeated (a move restated, a long reply) is read once.
    let mut last: Option<(&str, Option<Move>)> = None;
    let words = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || "-=+#".contains(c)))
        .filter(|w| !w.is_empty());
    for word in words {
        let mv = match last {
            Some((w, mv)) if w == word => mv,
            _ => {
                let mv = read_word(word).and_then(|named| {
                    let mut matches = legal.iter().filter(|(mv, name)| fits(board, *mv, name, &named));
                    match (matches.next(), matches.next()) {
                        (Some(&(mv, _)), None) => Some(mv),
                        (None, _) => {
                            problem.get_or_insert_with(|| format!("`{word}` is not a legal move now"));
                            None
                        }
                        (Some(_), Some(_)) => {
                            problem.get_or_insert_with(|| {
                                format!(
                                    "`{word}` fits several legal moves; name the square it moves from, or the promotion piece"
                                )
                            });
                            None
                        }
                    }
                });
                last = Some((word, mv));
                mv
            }
        };
        let Some(mv) = mv else { continue };
        match found {
            Some(f) if f != mv => {
                return Err(InvalidAction::new(format!(
                    "name exactly one move, not several; {HINT}"
                )));
            }
            _ => found = Some(mv),
        }
    }
    found.ok_or_else(|| {
        InvalidAction::new(match problem {
            Some(p) => format!("{p}; {HINT}"),
            None => format!("no legal move found; {HINT}"),
        })
    })
}

/// Whether the legal move `mv`, named `name` in UCI, is what `named` names.
fn fits(board: &Board, mv: Move, name: &str, named: &Named) -> bool {
    let castle = is_castle(board, mv);
    match *named {
        Named::Castle { short } => castle && (mv.to.file() > mv.from.file()) == short,
        Named::Uci(from, to, promo) => {
            // UCI's squares (castling as the king's two-square move), and
            // the promotion piece if one is named: a missing one fits every
            // promotion, which the caller refuses as unclear.
            let b = name.as_bytes();
            let square_at = |i: usize| square(b[i], b[i + 1]);
            square_at(0) == Some(from)
                && square_at(2) == Some(to)
                && promo.is_none_or(|p| mv.promotion == Some(p))
        }
        Named::San(piece, file, rank, to, promo) => {
            // A pawn names its file only when it captures: `e4` is a push.
            let pawn_file = piece != Piece::Pawn
                || match file {
                    None => mv.from.file() == to.file(),
                    Some(f) => f != to.file(),
                };
            !castle
                && pawn_file
                && board.piece_on(mv.from) == Some(piece)
                && mv.to == to
                && file.is_none_or(|f| mv.from.file() == f)
                && rank.is_none_or(|r| mv.from.rank() == r)
                && (promo.is_none() || mv.promotion == promo)
        }
    }
}
