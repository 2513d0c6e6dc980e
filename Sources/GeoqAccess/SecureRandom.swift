/// Bytes from the kernel's CSPRNG (getrandom on Linux, through SystemRandomNumberGenerator): keys,
/// token secrets, salts and message ids.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
