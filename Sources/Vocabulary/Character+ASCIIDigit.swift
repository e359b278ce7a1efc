extension Character {
    /// `0`…`9` only: `isNumber` also admits other scripts' digits and fractions.
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
