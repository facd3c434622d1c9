//! Moving plain `f32` lists in and out of burn tensors, for both policy
//! networks, their losses and their checkpoints.

use burn::tensor::{Device, Tensor, TensorData};

/// A tensor's values as a flat `f32` list.
pub fn tensor_vec<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data()
        .convert::<f32>()
        .as_slice::<f32>()
        .map(<[f32]>::to_vec)
        .unwrap_or_default()
}

/// Builds the `[rows, width]` float tensor of row-major `values`.
pub fn matrix(values: Vec<f32>, rows: usize, width: usize, device: &Device) -> Tensor<2> {
    Tensor::<2>::from_data(TensorData::new(values, [rows, width]), device)
}
