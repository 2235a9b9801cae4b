fn main() {
    println!("blades");
}
